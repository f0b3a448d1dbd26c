import { defineCommand, UsageError } from '../command';
import { guestPassword } from '../format-args';
import { REQUEST_LIMITS, requestFields, requestState } from './request-options';
import { GUEST_PASSWORD } from './shared-options';

export default defineCommand({
  name: 'request-set',
  summary: 'Change a file request: close or reopen it, its limits, expiry, password, note',
  args: '<id>',
  signedIn: true,
  options: {
    close: { type: 'boolean', description: 'Close the request (its link answers 404)' },
    open: { type: 'boolean', description: 'Reopen it' },
    ...REQUEST_LIMITS,
    'no-max-files': { type: 'boolean', description: 'Remove the file limit' },
    'no-max-size': { type: 'boolean', description: 'Remove the size limit' },
    'no-max-uploads': { type: 'boolean', description: 'Remove the upload limit' },
    'no-types': { type: 'boolean', description: 'Take any type of file' },
    'no-expiry': { type: 'boolean', description: 'Never expire' },
    'no-require-name': { type: 'boolean', description: 'The name becomes optional' },
    ...GUEST_PASSWORD('senders'),
    'no-password': { type: 'boolean', description: 'Remove the password' },
  },
  async run({ args, options: o, client, out }) {
    const id = args[0];
    if (!id || args.length > 1) throw new UsageError('Give one request id');
    if (o.close && o.open) throw new UsageError('Give --close or --open, not both');
    const patch = requestFields(o);
    if (o.close) patch.status = 'closed';
    if (o.open) patch.status = 'open';
    if (o['no-max-files']) patch.max_files = null;
    if (o['no-max-size']) patch.max_bytes = null;
    if (o['no-max-uploads']) patch.max_uploads = null;
    if (o['no-types']) patch.allowed_types = null;
    if (o['no-expiry']) patch.expires_at = null;
    if (o['no-require-name']) patch.require_name = false;
    const password = await guestPassword(o);
    if (password !== undefined) patch.password = password;
    if (o['no-password']) patch.password = null;
    if (Object.keys(patch).length === 0) throw new UsageError('Nothing to change: give --close, --open, a limit, --expires, --password or --note');
    const r = await client.updateRequest(id, patch);
    out(`${r.id}: ${requestState(r)}, ${r.upload_count} ${r.upload_count === 1 ? 'upload' : 'uploads'} received${o['generate-password'] ? `\npassword: ${password}` : ''}`, r);
  },
});
