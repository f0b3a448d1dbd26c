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
    if (!u) return out(`administrator (Admin Token) on ${creds.url}`, me);
    // An unfinished upload holds its bytes of the quota until it completes or is removed.
    // (An admin-role member lists everyone's shares: only their own hold their quota.)
    const pending = [];
    for await (const page of client.sharePages()) pending.push(...page.filter((s) => s.upload_state === 'pending' && s.user_id === u.id));
    const held = pending.reduce((n, s) => n + s.total_bytes, 0);
    const free = Math.max(0, u.quota_bytes - u.used_bytes - held);
    const heldText = pending.length
      ? `, ${formatBytes(held)} held by ${pending.length} unfinished ${pending.length === 1 ? 'upload' : 'uploads'} (htmls shares lists them)`
      : '';
    out(`${u.username} (${u.role}) — ${formatBytes(u.used_bytes)} of ${formatBytes(u.quota_bytes)} used${heldText}, ${formatBytes(free)} free`, {
      ...me,
      pending_uploads: { count: pending.length, held_bytes: held },
    });
  },
});
