import { spawn } from 'node:child_process';
import { ApiError, HtmlsClient } from '../../lib/client/node/sdk';
import { type Context, defineCommand, type Options, UsageError } from '../command';
import { type Credentials, describeStore, lastUrl, saveCredentials } from '../credentials';
import { secret } from '../prompt';

export default defineCommand({
  name: 'login',
  summary: 'Sign in to a server as a member (password or single sign-on) or the administrator (Admin Token)',
  details:
    'The password comes from HTMLS_PASSWORD, the Admin Token from HTMLS_ADMIN_TOKEN, or a hidden prompt;\n' +
    'with two-factor sign-in on, the code (or a recovery code) from HTMLS_CODE or a prompt.\n' +
    'With --sso: a page of the server to open in a browser (opened for you in a terminal), where you sign in\n' +
    'and approve after checking it shows the code printed here; this waits until then (10 minutes at most).\n' +
    'The session goes to the OS keyring when there is one, else to a 0600 file in ~/.config/htmls.',
  signedIn: false,
  options: {
    url: { type: 'string', value: 'URL', description: 'The server (default: HTMLS_URL, the last server, or http://localhost:3000)' },
    username: { type: 'string', value: 'NAME', description: 'Your username (or HTMLS_USERNAME)' },
    admin: { type: 'boolean', description: 'Sign in as the administrator with the Admin Token' },
    sso: { type: 'boolean', description: 'Sign in in a browser (single sign-on) and hand the session to this CLI' },
  },
  async run({ options: o, out }) {
    const url = (o.url ?? process.env.HTMLS_URL ?? (await lastUrl()) ?? 'http://localhost:3000').replace(/\/+$/, '');
    const client = new HtmlsClient({ baseUrl: url });
    if (o.admin) {
      const r = await refused(client.loginAdmin(await secret('HTMLS_ADMIN_TOKEN', 'Admin Token:')), `That is not the Admin Token of ${url}.`);
      const where = await saveCredentials({ url, role: 'admin', username: null }, r.token);
      return out(`Signed in to ${url} as the administrator (session kept in ${describeStore(where)}).`, {
        url,
        role: 'admin',
        expires_at: r.expires_at,
        stored_in: where,
      });
    }
    if (o.sso) {
      const r = await ssoHandoff(client, url);
      return keepSession(out, url, r, r.user.username);
    }
    const username = o.username ?? process.env.HTMLS_USERNAME;
    if (!username) throw new UsageError('Give --username NAME (or --admin)');
    const first = await refused(client.login(username, await secret('HTMLS_PASSWORD', 'Password:')), `Wrong username or password for ${url}.`);
    if ('second_factor' in first && first.second_factor === 'enroll') {
      throw new UsageError(`${url} asks this account to set up two-factor sign-in first: sign in at ${url}/files once, then run htmls login again.`);
    }
    const r = 'token' in first ? first : await client.loginSecondFactor(first.challenge, codeOf(await secret('HTMLS_CODE', 'Code from your authenticator app (or a recovery code):')));
    return keepSession(out, url, r, r.user?.username ?? username);
  },
});

/**
 * Keeps a member's session (password or single sign-on) in the credential store and reports it:
 * both sign-in paths end with the same sentence and the same --json record.
 */
async function keepSession(
  out: Context<Options>['out'],
  url: string,
  r: { role: Credentials['role']; user?: unknown; token: string; expires_at: string },
  name: string,
): Promise<void> {
  const where = await saveCredentials({ url, role: r.role, username: name }, r.token);
  out(`Signed in to ${url} as ${name} (session kept in ${describeStore(where)}).`, {
    url,
    role: r.role,
    user: r.user,
    expires_at: r.expires_at,
    stored_in: where,
  });
}

/**
 * `--sso`: asks the server for a hand-off, shows its page and code (on stderr: stdout stays for
 * --json), opens the page when a person is at the terminal, and polls until the member approved
 * it in the browser (the session) or it expired.
 */
async function ssoHandoff(client: HtmlsClient, url: string) {
  const h = await client.startSsoHandoff();
  process.stderr.write(`Open this page in a browser, sign in, and approve if it shows the code ${h.user_code}:\n  ${h.verification_url}\n`);
  if (process.stdout.isTTY && !process.env.HTMLS_NO_BROWSER) openBrowser(h.verification_url);
  const deadline = Date.parse(h.expires_at);
  for (;;) {
    const r = await client.pollSsoHandoff(h.device_code);
    if (r.status === 'approved') return r;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, h.interval) * 1000));
  }
  throw new ApiError(410, 'expired', `Nobody approved the sign-in at ${url} in time: run htmls login --sso again.`);
}

/** The system's browser, best effort (the page's address is printed all the same). */
function openBrowser(target: string): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [target]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', target]] : ['xdg-open', [target]];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    /* no browser here: the address is printed */
  }
}

/** Six digits are a TOTP code; anything else is taken as a recovery code. */
const codeOf = (v: string) => (/^\s*\d{6}\s*$/.test(v) ? { code: v.trim() } : { recovery_code: v.trim() });

/**
 * The server's 401 here means the credentials were wrong, not that a session ended: say that
 * (the generic "run htmls login" would send the person back to the command they just ran).
 */
async function refused<T>(login: Promise<T>, sentence: string): Promise<T> {
  try {
    return await login;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401 && e.code === 'unauthenticated') throw new ApiError(401, 'wrong_credentials', sentence);
    throw e;
  }
}
