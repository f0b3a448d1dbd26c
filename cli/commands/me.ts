import { formatBytes } from '../../lib/client/format';
import { defineCommand } from '../command';

export default defineCommand({
  name: 'me',
  summary: 'Show who you are signed in as, and your quota',
  signedIn: true,
  options: {},
  async run({ client, creds, out }) {
    const me = await client.me();
    const u = me.user;
    out(u ? `${u.username} (${u.role}) — ${formatBytes(u.used_bytes)} of ${formatBytes(u.quota_bytes)} used` : `administrator (Admin Token) on ${creds.url}`, me);
  },
});
