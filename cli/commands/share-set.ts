import { defineCommand, UsageError } from '../command';
import { guestPassword, parseExpiry, parseMaxDownloads } from '../format-args';
import { GUEST_PASSWORD, MAX_DOWNLOADS } from './shared-options';

export default defineCommand({
  name: 'share-set',
  summary: "Change a share: online/offline, expiry, password, download limit, note",
  args: '<id>',
  signedIn: true,
  options: {
    offline: { type: 'boolean', description: 'Take the link offline (guests get 404)' },
    online: { type: 'boolean', description: 'Put the link back online' },
    expires: { type: 'string', value: 'WHEN', description: 'New expiry: 7d, 24h, 90m or an ISO time' },
    'no-expiry': { type: 'boolean', description: 'Never expire' },
    ...GUEST_PASSWORD('guests'),
    'no-password': { type: 'boolean', description: 'Remove the password' },
    ...MAX_DOWNLOADS,
    'no-max-downloads': { type: 'boolean', description: 'Remove the download limit' },
    note: { type: 'string', value: 'TEXT', description: 'Replace the note' },
  },
  async run({ args, options: o, client, out }) {
    const id = args[0];
    if (!id) throw new UsageError('Give the share id');
    if (args.length > 1) throw new UsageError(`One share id at a time (got ${args.length} arguments)`);
    const patch: { status?: 'online' | 'offline'; expires_at?: string | null; password?: string | null; note?: string; max_downloads?: number | null } = {};
    if (o.offline) patch.status = 'offline';
    if (o.online) patch.status = 'online';
    if (o.expires) patch.expires_at = parseExpiry(o.expires);
    if (o['no-expiry']) patch.expires_at = null;
    if (o['max-downloads'] !== undefined) patch.max_downloads = parseMaxDownloads(o['max-downloads']);
    if (o['no-max-downloads']) patch.max_downloads = null;
    const password = await guestPassword(o);
    if (password !== undefined) patch.password = password;
    if (o['no-password']) patch.password = null;
    if (o.note !== undefined) patch.note = o.note;
    if (Object.keys(patch).length === 0) throw new UsageError('Nothing to change: give --offline, --online, --expires, --password, --no-password, --max-downloads or --note');
    const share = await client.updateShare(id, patch);
    out(
      `${share.id}: ${share.status}, ${share.expires_at ? `expires ${share.expires_at}` : 'no expiry'}, ${share.has_password ? 'password set' : 'no password'}, ${share.max_downloads === null ? 'no download limit' : `${share.download_count} of ${share.max_downloads} downloads`}${o['generate-password'] ? `\npassword: ${patch.password}` : ''}`,
      { ...share, ...(o['generate-password'] ? { password: patch.password } : {}) },
    );
  },
});
