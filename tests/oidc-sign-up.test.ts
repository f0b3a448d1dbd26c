import { describe, expect, it } from 'vitest';
import { baseUrl } from './support/file-server';
import { call } from './support/http';
import { registerMember } from './support/members';
import { Browser, useOidcFileServer } from './support/oidc';
import { meWithCookie, ssoSignIn } from './support/oidc-flow';
import { TEST_ADMIN_TOKEN } from './support/server';
import { SoftAuthenticator } from './support/webauthn';

// OIDC_SIGNUP=on: the first sign-in of an identity linked to nobody creates a member (issue 42);
// OIDC_ONLY=true: /files offers no password sign-in.
const idp = useOidcFileServer({ OIDC_SIGNUP: 'on', OIDC_ONLY: 'true' });

describe('GET /api/auth/methods with OIDC_ONLY', () => {
  it('tells /files to hide the password forms (the API still takes the Admin Token)', async () => {
    expect((await call('GET', '/api/auth/methods')).json).toEqual({ password: false, oidc: { name: 'single sign-on' }, passkeys: false, require_2fa: 'off' });
    expect((await call('POST', '/api/auth/login', { body: { token: TEST_ADMIN_TOKEN } })).status).toBe(200);
  });
});

describe('GET /api/auth/oidc/start — rate limit', () => {
  it('sends the 31st sign-in from one address in five minutes to /files?sso_error=rate_limited', async () => {
    const browser = new Browser();
    const answers: string[] = [];
    for (let i = 0; i < 31; i++) answers.push((await browser.get(`${baseUrl()}/api/auth/oidc/start`)).headers.get('location') ?? '');
    expect(answers.slice(0, 30).every((l) => l.startsWith(`${idp().issuer}/`))).toBe(true);
    expect(answers[30]).toBe('/files?sso_error=rate_limited');
  });
});

describe('GET /api/auth/oidc/callback with OIDC_SIGNUP=on', () => {
  it('creates a member with the default quota at the first sign-in, and signs the same account in after', async () => {
    const sub = `new-${Date.now()}`;
    idp().accounts.set(sub, { email: 'newcomer@idp().example', email_verified: true, preferred_username: 'New.Comer', name: 'New Comer', groups: ['htmls-admins'] });
    const first = await ssoSignIn(new Browser(), sub);
    const id = first.landed.searchParams.get('sso_account');
    expect(id).toBeTruthy();
    const me = await meWithCookie(first.session!, id!);
    expect(me.status).toBe(200);
    const defaults = await call('GET', '/api/settings', { token: TEST_ADMIN_TOKEN });
    // No OIDC_ADMIN_GROUP here: a group claim grants nothing.
    expect(me.json).toMatchObject({ role: 'member', user: { id, username: 'new.comer', display_name: 'New Comer', email: 'newcomer@idp().example', quota_bytes: defaults.json.default_quota_bytes } });

    const again = await ssoSignIn(new Browser(), sub);
    expect(again.landed.searchParams.get('sso_account')).toBe(id);
    // The account has no password: no password signs in to it.
    for (const password of ['', 'anything-at-all']) {
      expect((await call('POST', '/api/auth/login', { body: { username: 'new.comer', password } })).status).toBe(401);
    }
    // So its identity cannot be unlinked: it is the only way in.
    const unlink = await call('DELETE', '/api/auth/oidc/identity', { token: again.session });
    expect([unlink.status, unlink.json?.code]).toEqual([409, 'conflict']);
    expect((await call('GET', '/api/auth/oidc/identity', { token: again.session })).json).toMatchObject({ identity: { email: 'newcomer@idp().example' }, has_password: false });
    // Its e-mail changes without a password it does not have: the single sign-on just made stands in for it.
    const changed = await call('PATCH', '/api/auth/profile', { token: again.session, body: { email: 'moved@idp().example' } });
    expect([changed.status, changed.json.user?.email]).toEqual([200, 'moved@idp().example']);
  });

  it('an account with no password may unlink its identity once it has a passkey; that passkey is then its only way in (409)', async () => {
    const sub = `pk-${Date.now()}`;
    idp().accounts.set(sub, { email: 'pk@idp().example', email_verified: true, preferred_username: `pk${Date.now().toString(36)}` });
    const token = (await ssoSignIn(new Browser(), sub)).session!;
    const auth = new SoftAuthenticator(baseUrl());
    const ro = await call('POST', '/api/auth/passkeys/options', { token, body: { purpose: 'register' } });
    const made = await call('POST', '/api/auth/passkeys', { token, body: { name: 'Phone', response: auth.register(ro.json) } });
    expect(made.status).toBe(201);
    const id = made.json.passkey.id as string;
    // Linked still: the last passkey may go, but only confirmed (a password it does not have is 401).
    expect((await call('DELETE', `/api/auth/passkeys/${id}`, { token, body: { password: 'anything' } })).status).toBe(401);
    expect((await call('DELETE', '/api/auth/oidc/identity', { token })).status).toBe(204);
    // Now the passkey is the only way in: it cannot be removed, even confirmed.
    const so = await call('POST', '/api/auth/passkeys/options', { token, body: { purpose: 'second_factor' } });
    const last = await call('DELETE', `/api/auth/passkeys/${id}`, { token, body: { response: auth.assert(so.json) } });
    expect([last.status, last.json?.code]).toEqual([409, 'conflict']);
    const lo = await call('POST', '/api/auth/passkeys/options', { body: { purpose: 'login' } });
    expect((await call('POST', '/api/auth/passkeys/login', { body: { response: auth.assert(lo.json) } })).status).toBe(200);
  });

  it("makes a new account for a provider account with a member's e-mail, never signing in to the member's", async () => {
    const victim = await registerMember({ email: 'victim@example.com' });
    const sub = `mallory-${Date.now()}`;
    idp().accounts.set(sub, { email: 'victim@example.com', email_verified: true, preferred_username: victim.username });
    const r = await ssoSignIn(new Browser(), sub);
    const id = r.landed.searchParams.get('sso_account');
    expect(id).toBeTruthy();
    expect(id).not.toBe(victim.id);
    const me = await meWithCookie(r.session!, id!);
    expect(me.json.user.username).not.toBe(victim.username);
    // The victim's own session is untouched and still theirs.
    expect((await call('GET', '/api/auth/me', { token: victim.token })).json.user.id).toBe(victim.id);
  });
});
