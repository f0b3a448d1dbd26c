import { defineCommand, UsageError } from '../command';
import { newPassword, parseExpiry } from '../format-args';
import { GENERATE_PASSWORD } from './shared-options';

export default defineCommand({
  name: 'share-set',
  summary: "Change a share: online/offline, expiry, password, note",
  args: '<id>',
  signedIn: true,
  options: {
    offline: { type: 'boolean', description: 'Take the link offline (guests get 404)' },
    online: { type: 'boolean', description: 'Put the link back online' },
    expires: { type: 'string', value: 'WHEN', description: 'New expiry: 7d, 24h, 90m or an ISO time' },
    'no-expiry': { type: 'boolean', description: 'Never expire' },
    password: { type: 'string', value: 'P', description: 'Set the guest password' },
    ...GENERATE_PASSWORD,
    'no-password': { type: 'boolean', description: 'Remove the password' },
    note: { type: 'string', value: 'TEXT', description: 'Replace the note' },
  },
  async run({ args, options: o, client, out }) {
    const id = args[0];
    if (!id) throw new UsageError('Give the share id');
    const patch: { status?: 'online' | 'offline'; expires_at?: string | null; password?: string | null; note?: string } = {};
    if (o.offline) patch.status = 'offline';
    if (o.online) patch.status = 'online';
    if (o.expires) patch.expires_at = parseExpiry(o.expires);
    if (o['no-expiry']) patch.expires_at = null;
    if (o.password !== undefined) patch.password = o.password;
    if (o['generate-password']) patch.password = newPassword();
    if (o['no-password']) patch.password = null;
    if (o.note !== undefined) patch.note = o.note;
    if (Object.keys(patch).length === 0) throw new UsageError('Nothing to change: give --offline, --online, --expires, --password, --no-password or --note');
    const share = await client.updateShare(id, patch);
    out(
      `${share.id}: ${share.status}, ${share.expires_at ? `expires ${share.expires_at}` : 'no expiry'}, ${share.has_password ? 'password set' : 'no password'}${o['generate-password'] ? `\npassword: ${patch.password}` : ''}`,
      { ...share, ...(o['generate-password'] ? { password: patch.password } : {}) },
    );
  },
});
