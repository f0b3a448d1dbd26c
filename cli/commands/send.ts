import { ApiError, HtmlsClient } from '../../lib/client/node/sdk';
import { formatBytes } from '../../lib/client/format';
import { defineCommand, UsageError } from '../command';
import { requirePaths, resumableUploadReporting } from '../format-args';
import { secret } from '../prompt';
import { INCLUDE_DOTFILES } from './shared-options';

/** https://host/r/<id> → the service's origin (with any path prefix) and the request id. */
export function parseRequestUrl(text: string): { baseUrl: string; id: string } {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new UsageError(`"${text}" is not a link: give the request's whole link, such as https://files.example.com/r/AbC123`);
  }
  const m = /^(.*)\/r\/([A-Za-z0-9]{1,64})\/?$/.exec(u.pathname);
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !m) throw new UsageError(`"${text}" is not a file request's link (…/r/<id>)`);
  return { baseUrl: `${u.origin}${m[1]}`, id: m[2] };
}

export default defineCommand({
  name: 'send',
  summary: "Send files and folders to someone's file request (no account needed)",
  args: '<request link> <files or folders…>',
  details:
    'Large files go up in parts; if the command is interrupted, run it again with the same\n' +
    'files: it resumes, sending only the parts the server lacks.',
  signedIn: false,
  options: {
    name: { type: 'string', value: 'NAME', description: 'Your name (some requests require it)' },
    email: { type: 'string', value: 'ADDRESS', description: 'Your e-mail address' },
    message: { type: 'string', value: 'TEXT', description: 'A message for the person who asked' },
    password: { type: 'boolean', description: "Prompt for the request's password (or set HTMLS_REQUEST_PASSWORD)" },
    ...INCLUDE_DOTFILES,
  },
  async run({ args, options: o, json, out }) {
    if (args.length < 2) throw new UsageError('Give the request link, then the files or folders to send');
    const { baseUrl, id } = parseRequestUrl(args[0]);
    const paths = args.slice(1);
    requirePaths(paths);
    let password = o.password || process.env.HTMLS_REQUEST_PASSWORD ? await secret('HTMLS_REQUEST_PASSWORD', "The request's password:") : undefined;
    const { stats, callbacks } = resumableUploadReporting(json);
    const client = new HtmlsClient({ baseUrl });
    const send = () => client.sendToRequest(id, paths, { name: o.name, email: o.email, message: o.message, password, includeDotfiles: o['include-dotfiles'], ...callbacks });
    let share;
    try {
      share = await send();
    } catch (e) {
      // A protected request asked for its password: no login of ours can help. In a terminal
      // ask for it; in a script say how to give it (exit 1, not the "log in" exit 3).
      if (!(e instanceof ApiError && e.code === 'unauthenticated') || password !== undefined) throw e;
      if (!process.stdin.isTTY) {
        throw new ApiError(400, 'password_required', 'This file request is protected by a password: add --password (you will be asked for it) or set HTMLS_REQUEST_PASSWORD.');
      }
      password = await secret('HTMLS_REQUEST_PASSWORD', 'This request is protected. Its password:');
      share = await send();
    }
    if (!json && process.stderr.isTTY) process.stderr.write('\n');
    const what = `${share.file_count} ${share.file_count === 1 ? 'file' : 'files'}, ${formatBytes(share.total_bytes)}`;
    // An earlier run (or attempt) delivered them and the answer was lost: said, never sent twice.
    out(share.confirmed ? `Sent ${what}.` : `Sent ${what} (delivered by the earlier attempt; its confirmation was lost, so nothing was sent twice).`, {
      file_count: share.file_count,
      total_bytes: share.total_bytes,
      confirmed: share.confirmed,
      upload: stats,
    });
  },
});
