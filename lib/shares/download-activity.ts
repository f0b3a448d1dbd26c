import 'server-only';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { recordDownload } from './count-downloads';
import { clientHash, type DownloadClient, type TicketedDownload } from './download-tickets';
import type { Runtime } from '../runtime';

/** An address kept for the activity log only to its network: IPv4 /24, IPv6 /48 (parsed by ipaddr.js). */
export function truncateAddress(ip: string): string {
  // The request's address may be a /64 already (lib/http/client-ip.ts counts IPv6 clients so).
  const bare = ip.replace(/\/\d+$/, '');
  if (!isIP(bare)) return '';
  const a = ipaddr.process(bare);
  if (a.kind() === 'ipv4') return `${(a as ipaddr.IPv4).octets.slice(0, 3).join('.')}.0`;
  return `${(a as ipaddr.IPv6).parts.slice(0, 3).map((p) => p.toString(16)).join(':')}::`;
}

/**
 * The onSettle of a guest's download (an item, or the ZIP when path is null) of `size` bytes:
 * adds the bytes the response sent (which of them) to its download's activity row — the ticket's with a
 * download limit, else this client's (address + User-Agent) of this target, within a short
 * window (db/queries/activity.ts) — so `aria2c -x 8` or a video's seeks are one download,
 * completed when the bytes sent cover the whole. Called once per response, after it; the
 * bytes themselves never pass through here. With a limit it also gives the ticket back what a
 * cut-off response did not send.
 */
export function downloadRecorder(
  rt: Runtime,
  client: DownloadClient,
  shareId: string,
  path: string | null,
  target: string,
  size: number,
  limited: Pick<TicketedDownload, 'key' | 'settle'> | null,
): (sent: number, completed: boolean, covered: [number, number][]) => void {
  const ip = truncateAddress(client.ip);
  const userAgent = (client.userAgent ?? '').slice(0, 200);
  const windowKey = `c:${clientHash(client)}:${target}`;
  return (sent, _completed, covered) => {
    limited?.settle(sent);
    const key = limited?.key() ?? windowKey;
    if (sent > 0) recordDownload(rt, { shareId, key, path, size, covered, ip, userAgent, at: new Date() });
  };
}
