import { defineCommand, UsageError } from '../command';
import { guestPassword } from '../format-args';
import { REQUEST_LIMITS, requestFields } from './request-options';
import { GUEST_PASSWORD } from './shared-options';

export default defineCommand({
  name: 'request',
  summary: 'Make a file request: a link through which anyone sends you files',
  args: 'create',
  details: 'Example: htmls request create --max-files 10 --max-size 2GB --types video/*,.pdf --expires 7d\nWhat arrives becomes your shares, offline until you put them online (htmls share-set <id> --online).',
  signedIn: true,
  options: { ...REQUEST_LIMITS, ...GUEST_PASSWORD('senders'), qr: { type: 'boolean', description: 'Print a QR code of the link (the default in a terminal)' } },
  async run({ args, options: o, json, client, creds, out }) {
    if (args[0] !== 'create' || args.length > 1) throw new UsageError('Use: htmls request create [options]');
    const body = requestFields(o);
    const password = await guestPassword(o);
    if (password) body.password = password;
    const request = await client.createRequest(body);
    const link = `${creds.url}${request.url}`;
    if (json) return out('', { ...request, link, ...(o['generate-password'] ? { password } : {}) });
    console.log(link);
    if (o['generate-password']) console.log(`password: ${password}`);
    if (o.qr || process.stdout.isTTY) {
      const qrcode = await import('qrcode');
      console.log(await qrcode.toString(link, { type: 'terminal', small: true }));
    }
  },
});
