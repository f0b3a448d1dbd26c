import { formatBytes } from '../../lib/client/format';
import { defineCommand } from '../command';

export default defineCommand({
  name: 'shares',
  summary: 'List your shares with their status, size, expiry and link',
  signedIn: true,
  options: {},
  async run({ client, creds, json, out }) {
    const shares = await client.listShares();
    if (json) return out('', shares);
    if (shares.length === 0) return console.log('No shares.');
    for (const s of shares) {
      console.log(
        `${s.id}  ${s.status.padEnd(7)} ${formatBytes(s.total_bytes).padStart(8)}  ${s.file_count} files  ${s.expires_at ? `expires ${s.expires_at}` : 'no expiry'}${s.has_password ? '  🔒' : ''}  ${creds.url}${s.url}${s.note ? `  — ${s.note}` : ''}`,
      );
    }
  },
});
