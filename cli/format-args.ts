/** Small parsers and printers the commands share. */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { formatBytes, formatEta, formatSpeed } from '../lib/client/format';
import { UsageError } from './command';
import { secret } from './prompt';

/** "7d", "24h", "90m", or an ISO time → ISO time; a time already past is refused (the link would be dead). */
export function parseExpiry(text: string, now = Date.now()): string {
  const at = readExpiry(text, now);
  if (Date.parse(at) <= now) throw new UsageError(`The expiry "${text}" has already passed: give a later time, or a duration such as 7d`);
  return at;
}

function readExpiry(text: string, now: number): string {
  const m = /^(\d+)\s*([dhm])$/i.exec(text.trim());
  if (m) {
    const unit = { d: 86400_000, h: 3600_000, m: 60_000 }[m[2].toLowerCase() as 'd' | 'h' | 'm'];
    return new Date(now + Number(m[1]) * unit).toISOString();
  }
  const t = Date.parse(text);
  if (Number.isNaN(t)) throw new UsageError(`Cannot read the expiry "${text}": use 7d, 24h, 90m or an ISO time`);
  return new Date(t).toISOString();
}

/** --max-downloads N → N, a whole number ≥ 1. */
export function parseMaxDownloads(text: string): number {
  const n = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--max-downloads takes a whole number of downloads, 1 or more (not "${text}")`);
  return n;
}

/** The guest password the options ask for: generated, typed at a hidden prompt (or HTMLS_GUEST_PASSWORD), or none. */
export async function guestPassword(o: { password?: boolean; 'generate-password'?: boolean }): Promise<string | undefined> {
  if (o.password && o['generate-password']) throw new UsageError('Give --password or --generate-password, not both');
  if (o['generate-password']) return newPassword();
  if (!o.password) return undefined;
  const typed = await secret('HTMLS_GUEST_PASSWORD', 'Password for guests:');
  if (!typed) throw new UsageError('The password is empty: type one, or leave out --password');
  return typed;
}

/** A strong password for --generate-password: 12 random bytes, base64url (16 characters). */
export const newPassword = () => randomBytes(12).toString('base64url');

/** A progress line on stderr: redrawn in a terminal, at most five lines a second otherwise. */
export function progressBar(json: boolean) {
  let last = 0;
  return (p: { stage?: string; loaded: number; total: number; speed: number; eta: number }) => {
    // Nothing drawn before the server took the upload: a refused init prints only its reason.
    if (json || p.stage === 'preparing') return;
    const now = Date.now();
    if (now - last < 200 && p.loaded < p.total) return;
    last = now;
    const width = 28;
    const filled = p.total ? Math.round((p.loaded / p.total) * width) : width;
    const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${formatBytes(p.loaded)} / ${formatBytes(p.total)}  ${formatSpeed(p.speed)}  ETA ${formatEta(p.eta)}`;
    process.stderr.write(process.stderr.isTTY ? `\r${line}` : `${line}\n`);
  };
}

/** Says on stderr which private files stayed home (stdout stays the result). */
export function reportSkipped(paths: string[]) {
  const shown = paths.slice(0, 5).join(', ');
  process.stderr.write(
    `Left out ${paths.length} private ${paths.length === 1 ? 'path' : 'paths'} (${shown}${paths.length > 5 ? ', …' : ''}): add --include-dotfiles to send them.\n`,
  );
}

/** Every path given exists, or the command stops with its name (not a raw ENOENT from deep inside). */
export function requirePaths(paths: string[]) {
  const missing = paths.filter((p) => !existsSync(p));
  if (missing.length > 0) throw new UsageError(`No such file or folder: ${missing.join(', ')}`);
}

/**
 * What a resumable upload command (share, send) reports: the progress bar, skipped private
 * paths, the parts counted for --json, a resume announced on stderr (stdout stays one JSON
 * document with --json), and Ctrl-C answered with how to resume (the state file keeps the upload).
 */
export function resumableUploadReporting(json: boolean) {
  const stats = { parts_total: 0, parts_resumed: 0, parts_sent: 0 };
  process.once('SIGINT', () => {
    process.stderr.write('\nInterrupted: run the same command again to resume the upload.\n');
    process.exit(130);
  });
  return {
    stats,
    callbacks: {
      onSkipped: reportSkipped,
      onProgress: progressBar(json),
      onPartDone: (n: number) => (stats.parts_sent = n),
      onPlan: (plan: { totalParts: number; storedParts: number; resumed: boolean }) => {
        stats.parts_total = plan.totalParts;
        stats.parts_resumed = plan.storedParts;
        if (plan.resumed) process.stderr.write(`resuming: ${plan.storedParts} of ${plan.totalParts} parts already uploaded\n`);
      },
    },
  };
}
