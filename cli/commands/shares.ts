import { formatBytes } from '../../lib/client/format';
import { defineCommand } from '../command';

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
    for (const s of shares) {
      console.log(
        `${s.id}  ${s.status.padEnd(7)} ${formatBytes(s.total_bytes).padStart(8)}  ${s.file_count} files  ${s.expires_at ? `expires ${s.expires_at}` : 'no expiry'}${s.has_password ? '  🔒' : ''}  ${creds.url}${s.url}${s.note ? `  — ${s.note}` : ''}`,
      );
    }
    if (more) console.log(`More shares exist: htmls shares --all${options.search ? ' --search …' : ''} lists every one.`);
  },
});
