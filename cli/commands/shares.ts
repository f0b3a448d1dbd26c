import { formatBytes } from '../../lib/client/format';
import type { ShareSummaryDto } from '../../lib/contract/dtos';
import { defineCommand } from '../command';

/** What a share is to its owner right now: an unfinished upload and an expired link say so. */
export function shareState(s: Pick<ShareSummaryDto, 'status' | 'upload_state' | 'expires_at'>, now = Date.now()): string {
  if (s.upload_state === 'pending') return 'pending';
  if (s.expires_at && Date.parse(s.expires_at) <= now) return 'expired';
  return s.status;
}

/** One line of `htmls shares`. */
export function shareLine(s: ShareSummaryDto, baseUrl: string, now = Date.now()): string {
  const state = shareState(s, now);
  const head = `${s.id}  ${state.padEnd(7)} ${formatBytes(s.total_bytes).padStart(8)}`;
  if (state === 'pending') return `${head}  upload not finished (run the same htmls share again to resume, or htmls share-rm ${s.id})`;
  const files = `${s.file_count} ${s.file_count === 1 ? 'file' : 'files'}`;
  const expiry = !s.expires_at ? 'no expiry' : `${state === 'expired' ? 'expired' : 'expires'} ${s.expires_at}`;
  const limit = s.max_downloads === null ? '' : `  ${s.download_count}/${s.max_downloads} downloads`;
  return `${head}  ${files}  ${expiry}${s.has_password ? '  password' : ''}${limit}  ${baseUrl}${s.url}${s.note || s.file_count ? `  — ${s.title}` : ''}`;
}

export default defineCommand({
  name: 'shares',
  summary: 'List your shares (newest first) with their status, size, expiry and link',
  signedIn: true,
  options: {
    all: { type: 'boolean', description: 'Every share, not only the newest 50 (fetched page by page)' },
    search: { type: 'string', value: 'TEXT', description: 'Only shares whose note or id contains TEXT' },
  },
  details: 'Without --all, the newest 50 shares are listed and the last line says whether more exist.',
  async run({ client, creds, json, out, options }) {
    const query = { q: options.search };
    const shares = [];
    let more = false;
    if (options.all) {
      for await (const page of client.sharePages(query)) shares.push(...page);
    } else {
      const page = await client.listShares(query);
      shares.push(...page.shares);
      more = page.next_cursor !== null;
    }
    if (json) return out('', shares);
    if (shares.length === 0) return console.log(options.search ? `No shares match "${options.search}".` : 'No shares.');
    for (const s of shares) console.log(shareLine(s, creds.url));
    if (more) console.log(`More shares exist: htmls shares --all${options.search ? ' --search …' : ''} lists every one.`);
  },
});
