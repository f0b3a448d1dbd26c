/**
 * `htmls login --sso` (issue 42): the CLI (a child process) asks for a hand-off, the member signs
 * in with single sign-on in a browser (driven here with HTTP, against the real OpenID provider of
 * the OIDC tests) and approves it, and the CLI's polling gets an ordinary session.
 */
import { describe, expect, it } from 'vitest';
import { startCli, htmls } from './support/cli';
import { baseUrl } from './support/file-server';
import { call, randomIp } from './support/http';
import { createMember } from './support/members';
import { Browser, useOidcFileServer } from './support/oidc';
import { ssoSignIn } from './support/oidc-flow';
import { tempDir } from './support/server';

const idp = useOidcFileServer({ OIDC_SIGNUP: 'on' });

let n = 0;
function idpAccount(): string {
  const sub = `cli-${++n}-${Date.now()}`;
  idp().accounts.set(sub, { email: `${sub}@idp().example`, email_verified: true, preferred_username: sub });
  return sub;
}

/** Approves as the browser whose session cookie and console account are given. */
const approve = (session: string, account: string, userCode: string, ip?: string) =>
  call('POST', '/api/auth/cli/handoff/approve', { cookie: `htmls_user_session=${session}`, headers: { 'X-Htmls-Account': account }, body: { user_code: userCode }, ip });

describe('htmls login --sso', () => {
  it('prints a page and a code; signing in there with single sign-on and approving signs the CLI in', async () => {
    const env = { HTMLS_CONFIG_DIR: tempDir('htmls-cli-sso-') };
    const cli = startCli(['login', '--sso', '--url', baseUrl(), '--json'], env);
    let stderr = '';
    cli.proc.stderr.on('data', (d) => (stderr += d));
    await expect.poll(() => /https?:\/\/\S+\/cli-login\?code=\S+/.exec(stderr)?.[0], { timeout: 30_000 }).toBeTruthy();
    const page = new URL(/https?:\/\/\S+\/cli-login\?code=\S+/.exec(stderr)![0]);
    const userCode = page.searchParams.get('code')!;
    expect(userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect(stderr).toContain(`shows the code ${userCode}`);

    // The browser: the page sends it through single sign-on and back to itself.
    const sub = idpAccount();
    const signedIn = await ssoSignIn(new Browser(), sub, { query: `return_to=${encodeURIComponent(`${page.pathname}${page.search}`)}` });
    expect(signedIn.landed.pathname).toBe('/cli-login');
    expect(signedIn.landed.searchParams.get('code')).toBe(userCode);
    const account = signedIn.landed.searchParams.get('sso_account')!;
    expect(account).toBeTruthy();
    const ok = await approve(signedIn.session!, account, userCode.toLowerCase());
    expect([ok.status, ok.json]).toEqual([200, { ok: true }]);

    const done = await cli.done;
    expect(done.code, done.stderr).toBe(0);
    const out = JSON.parse(done.stdout);
    expect(out).toMatchObject({ role: 'member', user: { id: account, username: sub } });
    // The CLI's session is an ordinary one of that account.
    const me = await htmls(['me', '--json'], env);
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout).user.id).toBe(account);
    const sessions = await call('GET', '/api/auth/sessions', { cookie: `htmls_user_session=${signedIn.session}`, headers: { 'X-Htmls-Account': account } });
    expect((sessions.json.sessions as { method: string }[]).map((s) => s.method).sort()).toEqual(['cli-handoff', 'oidc']);

    // Used: the code approves nothing again.
    expect((await approve(signedIn.session!, account, userCode)).status).toBe(404);

    // This account has no password: changing its e-mail needs a fresh single sign-on, which a
    // hand-off session is not (issue 42, item 3); the browser's new one is.
    const h = await call('POST', '/api/auth/cli/handoff');
    expect((await approve(signedIn.session!, account, h.json.user_code)).status).toBe(200);
    const cliToken = (await call('POST', '/api/auth/cli/handoff/poll', { body: { device_code: h.json.device_code } })).json.token as string;
    const refused = await call('PATCH', '/api/auth/profile', { token: cliToken, body: { email: 'moved@idp().example', current_password: 'anything' } });
    expect([refused.status, refused.json.code, refused.json.reauthenticate]).toEqual([403, 'forbidden', 'oidc']);
    const moved = await call('PATCH', '/api/auth/profile', { token: signedIn.session, body: { email: 'moved@idp().example' } });
    expect([moved.status, moved.json.user?.email]).toEqual([200, 'moved@idp().example']);
  });

  it('is single use, bound to the approving member, and pending until approved', async () => {
    const m = await createMember();
    const ip = randomIp();
    const start = await call('POST', '/api/auth/cli/handoff', { ip });
    expect(start.status).toBe(201);
    expect(start.json).toMatchObject({ device_code: expect.any(String), user_code: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/), interval: expect.any(Number) });
    expect(start.json.verification_url).toBe(`${baseUrl()}/cli-login?code=${start.json.user_code}`);
    const poll = () => call('POST', '/api/auth/cli/handoff/poll', { body: { device_code: start.json.device_code }, ip });
    expect((await poll()).json).toEqual({ status: 'pending' });

    // Approving needs a member's session: none, an access token, or the Admin Token are refused.
    expect((await call('POST', '/api/auth/cli/handoff/approve', { body: { user_code: start.json.user_code } })).status).toBe(401);
    const token = await call('POST', '/api/tokens', { token: m.token, body: { name: 'ci', scopes: ['account:read'] } });
    expect(token.status).toBe(201);
    expect((await call('POST', '/api/auth/cli/handoff/approve', { token: token.json.secret, body: { user_code: start.json.user_code } })).status).toBe(403);
    // A wrong code approves nothing.
    expect((await call('POST', '/api/auth/cli/handoff/approve', { token: m.token, body: { user_code: 'BCDF-GHJK' } })).status).toBe(404);
    expect((await call('POST', '/api/auth/cli/handoff/approve', { token: m.token, body: { user_code: start.json.user_code } })).status).toBe(200);
    // Approved once: another member cannot take it over.
    const other = await createMember();
    expect((await call('POST', '/api/auth/cli/handoff/approve', { token: other.token, body: { user_code: start.json.user_code } })).status).toBe(404);

    const got = await poll();
    expect(got.json).toMatchObject({ status: 'approved', role: 'member', user: { id: m.id }, token: expect.any(String) });
    expect((await call('GET', '/api/auth/me', { token: got.json.token })).json.user.id).toBe(m.id);
    // Single use: the next poll finds nothing.
    const again = await poll();
    expect([again.status, again.json.code]).toEqual([410, 'expired']);
    expect([(await call('POST', '/api/auth/cli/handoff/poll', { body: { device_code: 'forged' } })).status]).toEqual([410]);
    expect((await call('POST', '/api/auth/cli/handoff/poll', { body: {} })).status).toBe(400);
  });

  it('is rate-limited: hand-offs per address, approvals per account', async () => {
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await call('POST', '/api/auth/cli/handoff', { ip })).status);
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses[10]).toBe(429);

    const m = await createMember();
    const tries: number[] = [];
    for (let i = 0; i < 11; i++) tries.push((await call('POST', '/api/auth/cli/handoff/approve', { token: m.token, body: { user_code: 'BCDF-GHJK' }, ip: randomIp() })).status);
    expect(tries.slice(0, 10).every((s) => s === 404)).toBe(true);
    expect(tries[10]).toBe(429);
  });
});
