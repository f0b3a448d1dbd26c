import { defineCommand, UsageError } from '../command';
import { guestPassword, parseExpiry, parseMaxDownloads, requirePaths, resumableUploadReporting } from '../format-args';
import { GUEST_PASSWORD, INCLUDE_DOTFILES, MAX_DOWNLOADS } from './shared-options';

export default defineCommand({
  name: 'share',
  summary: 'Upload files and folders as one share and print its link',
  args: '<files or folders…>',
  details:
    'Large files go up in parts; if the command is interrupted (Ctrl-C, a crash, a lost network),\n' +
    'run it again with the same files: it resumes, sending only the parts the server lacks.',
  signedIn: true,
  options: {
    note: { type: 'string', value: 'TEXT', description: 'A note shown on the share page' },
    expires: { type: 'string', value: 'WHEN', description: 'When the link stops working: 7d, 24h, 90m or an ISO time' },
    ...GUEST_PASSWORD('guests'),
    ...MAX_DOWNLOADS,
    qr: { type: 'boolean', description: 'Print a QR code of the link (the default in a terminal)' },
    ...INCLUDE_DOTFILES,
  },
  async run({ args, options: o, json, client, creds, out }) {
    if (args.length === 0) throw new UsageError('Name the files or folders to share');
    requirePaths(args);
    const expiresAt = o.expires ? parseExpiry(o.expires) : undefined;
    const maxDownloads = o['max-downloads'] !== undefined ? parseMaxDownloads(o['max-downloads']) : undefined;
    const password = await guestPassword(o);
    const { stats, callbacks } = resumableUploadReporting(json);
    const share = await client.uploadShare(args, {
      note: o.note,
      expiresAt,
      password,
      maxDownloads,
      includeDotfiles: o['include-dotfiles'],
      ...callbacks,
    });
    if (!json && process.stderr.isTTY) process.stderr.write('\n');
    const link = `${creds.url}${share.url}`;
    if (json) return out('', { ...share, link, upload: stats, ...(o['generate-password'] ? { password } : {}) });
    console.log(link);
    if (o['generate-password']) console.log(`password: ${password}`);
    if (o.qr || process.stdout.isTTY) {
      const qrcode = await import('qrcode');
      console.log(await qrcode.toString(link, { type: 'terminal', small: true }));
    }
  },
});
