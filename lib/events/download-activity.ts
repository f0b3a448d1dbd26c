import 'server-only';
import { isIP } from 'node:net';
import type { FastRequest } from '../http/fast';
import { recordDownload } from '../shares/count-downloads';

/** An address kept for the activity log only to its network: IPv4 /24, IPv6 /48. */
export function truncateAddress(ip: string): string {
  // The request's address may be a /64 already (lib/http/client-ip.ts counts IPv6 clients so).
  const bare = ip.replace(/\/\d+$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  const addr = mapped ? mapped[1] : bare;
  if (isIP(addr) === 4) return addr.replace(/\.\d+$/, '.0');
  if (isIP(addr) === 6) {
    const head = addr.split('::')[0].split(':').slice(0, 3);
    return `${head.join(':')}::`;
  }
  return '';
}

/**
 * The onSettle of a guest's download (an item, or the ZIP when path is null): one activity
 * entry when the response sent bytes, completed when it reached the last byte. Called once per
 * response, after it; the bytes themselves never pass through here.
 */
export function downloadRecorder(req: FastRequest, shareId: string, path: string | null): (sent: number, completed: boolean) => void {
  const ip = truncateAddress(req.ip);
  const userAgent = (req.header('user-agent') ?? '').slice(0, 200);
  return (sent, completed) => {
    if (sent > 0) recordDownload({ shareId, path, bytes: sent, completed, ip, userAgent, at: new Date() });
  };
}
