import { describe, expect, it } from 'vitest';
import { baseUrl } from './support/file-server';
import { call } from './support/http';
import { registerMember } from './support/members';
import { Browser, useOidcFileServer } from './support/oidc';
import { meWithCookie, ssoSignIn } from './support/oidc-flow';
import { TEST_ADMIN_TOKEN } from './support/server';
import { Secret, TOTP } from 'otpauth';

// Single sign-on against a real OpenID provider run by this test (issue 42, item 1), with
// OIDC_SIGNUP off: only identities linked from a signed-in session sign in.
const idp = useOidcFileServer({ OIDC_SIGNUP: 'off', OIDC_ADMIN_GROUP: 'htmls-admins', OIDC_NAME: 'Test IdP' });

const sameOrigin = { 'Sec-Fetch-Site': 'same-origin' };
let n = 0;
/** A provider account with these claims, and its id (the `sub`). */
function idpAccount(claims: Record<string, unknown> = {}): string {
  const sub = `sub-${++n}-${Date.now()}`;
  idp().accounts.set(sub, { email: `${sub}@idp().example`, email_verified: true, preferred_username: sub, ...claims });
  return sub;
}

/** A member (password) who linked the provider account `sub` from their signed-in session. */
async function linkedMember(sub: string) {
  const member = await registerMember();
  const browser = new Browser();
  browser.setCookie(new URL(baseUrl()).origin, 'htmls_user_session', member.token);
  const r = await ssoSignIn(browser, sub, { query: 'link=1&return_to=%2Ffiles%23settings', startHeaders: sameOrigin });
  expect(`${r.landed.pathname}${r.landed.search}${r.landed.hash}`).toBe('/files?sso_linked=1#settings');
  return member;
}

describe('GET /api/auth/methods', () => {
  it('names the provider for the button and keeps the password', async () => {
    const r = await call('GET', '/api/auth/methods');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ password: true, oidc: { name: 'Test IdP' }, passkeys: true, require_2fa: 'off' });
  });
});

describe('GET /api/auth/oidc/start → provider → GET /api/auth/oidc/callback', () => {
  it('signs in the member an identity was linked to, with a session cookie that works on /api/auth/me', async () => {
    const sub = idpAccount();
    const member = await linkedMember(sub);
    const browser = new Browser();
    const r = await ssoSignIn(browser, sub);
    expect(r.landed.pathname).toBe('/files');
    expect(r.landed.searchParams.get('sso_account')).toBe(member.id);
    expect(r.session).toBeTruthy();
    const me = await meWithCookie(r.session!, member.id);
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ role: 'member', user: { id: member.id, username: member.username } });
    // The flow's cookie is gone: the same answer cannot be replayed in this browser.
    expect(browser.cookie(new URL(baseUrl()).origin, 'htmls_oidc')).toBeUndefined();
    // The session is a Bearer token too, as a password sign-in's is.
    expect((await call('GET', '/api/auth/me', { token: r.session })).json.user.id).toBe(member.id);
  });

  it('never skips an enrolled second factor: no session, the challenge in /files#fragment, and the code finishes the sign-in', async () => {
    const sub = idpAccount();
    const member = await linkedMember(sub);
    const setup = await call('POST', '/api/auth/totp/setup', { token: member.token, body: {} });
    const code = () => TOTP.generate({ secret: Secret.fromBase32(setup.json.secret) });
    expect((await call('POST', '/api/auth/totp/enable', { token: member.token, body: { code: code() } })).status).toBe(200);
    const r = await ssoSignIn(new Browser(), sub);
    expect(r.session).toBeUndefined();
    expect(r.landed.pathname).toBe('/files');
    expect(r.landed.search).toBe('');
    const hash = new URLSearchParams(r.landed.hash.slice(1));
    expect(hash.get('sso_second_factor')).toBe('required');
    const challenge = hash.get('challenge')!;
    expect(challenge).toBeTruthy();
    // The code was used by enable in this 30 s step: the next one (±1 step) finishes the sign-in.
    const next = TOTP.generate({ secret: Secret.fromBase32(setup.json.secret), timestamp: Date.now() + 30_000 });
    const done = await call('POST', '/api/auth/login/second-factor', { body: { challenge, code: next } });
    expect(done.status).toBe(200);
    expect(done.json.user.id).toBe(member.id);
  });

  it('returns to a same-origin return_to', async () => {
    const sub = idpAccount();
    const member = await linkedMember(sub);
    const r = await ssoSignIn(new Browser(), sub, { query: `return_to=${encodeURIComponent(`${baseUrl()}/files?x=1#shares`)}` });
    expect(`${r.landed.pathname}${r.landed.search}${r.landed.hash}`).toBe(`/files?x=1&sso_account=${member.id}#shares`);
  });

  it('refuses an identity linked to no account while OIDC_SIGNUP is off: no session', async () => {
    const r = await ssoSignIn(new Browser(), idpAccount());
    expect(`${r.landed.pathname}${r.landed.search}`).toBe('/files?sso_error=not_linked');
    expect(r.session).toBeUndefined();
  });

  it("never links by e-mail: a provider account with a member's (verified) address does not get into that account", async () => {
    const victim = await registerMember({ email: 'victim@example.com' });
    const mallory = idpAccount({ email: 'victim@example.com', email_verified: true, preferred_username: victim.username });
    const r = await ssoSignIn(new Browser(), mallory);
    expect(`${r.landed.pathname}${r.landed.search}`).toBe('/files?sso_error=not_linked');
    expect(r.session).toBeUndefined();
    // And a linked victim is not reached through the address either.
    const linkedVictim = await linkedMember(idpAccount({ email: 'victim2@example.com' }));
    const r2 = await ssoSignIn(new Browser(), idpAccount({ email: 'victim2@example.com', email_verified: true }));
    expect(r2.landed.searchParams.get('sso_error')).toBe('not_linked');
    expect(r2.landed.searchParams.get('sso_account')).not.toBe(linkedVictim.id);
  });

  it('refuses a wrong state, and an answer delivered to a browser that did not start the sign-in', async () => {
    const sub = idpAccount();
    await linkedMember(sub);
    const wrongState = await ssoSignIn(new Browser(), sub, {
      rewrite: (u) => {
        if (u.pathname === '/api/auth/oidc/callback') u.searchParams.set('state', 'forged-state');
        return u;
      },
    });
    expect(`${wrongState.landed.pathname}${wrongState.landed.search}`).toBe('/files?sso_error=state_mismatch');
    expect(wrongState.session).toBeUndefined();

    // Login CSRF: the attacker's own code and state, sent to the victim's browser.
    const attacker = new Browser();
    const victim = new Browser();
    let stolen: URL | undefined;
    await ssoSignIn(attacker, sub, {
      rewrite: (u) => {
        if (u.pathname === '/api/auth/oidc/callback' && !stolen) {
          stolen = new URL(u);
          u.searchParams.set('code', 'used-up');
        }
        return u;
      },
    });
    const res = await victim.get(stolen!.href);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/files?sso_error=state_mismatch');
    expect(victim.cookie(new URL(baseUrl()).origin, 'htmls_user_session')).toBeUndefined();
  });

  it('checks the nonce: an ID token minted for another nonce is refused', async () => {
    const sub = idpAccount();
    await linkedMember(sub);
    const r = await ssoSignIn(new Browser(), sub, {
      rewrite: (u) => {
        if (u.origin === idp().issuer && u.searchParams.has('nonce')) u.searchParams.set('nonce', 'another-nonce');
        return u;
      },
    });
    expect(`${r.landed.pathname}${r.landed.search}`).toBe('/files?sso_error=invalid_response');
    expect(r.session).toBeUndefined();
  });

  it('sends the PKCE verifier: a code issued for another challenge is refused', async () => {
    const sub = idpAccount();
    await linkedMember(sub);
    const r = await ssoSignIn(new Browser(), sub, {
      rewrite: (u) => {
        if (u.origin === idp().issuer && u.searchParams.has('code_challenge')) u.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
        return u;
      },
    });
    expect(r.landed.searchParams.get('sso_error')).toBe('invalid_response');
    expect(r.session).toBeUndefined();
  });

  it('grants the admin role to a member of OIDC_ADMIN_GROUP at sign-in, and removes it when the group is gone', async () => {
    const sub = idpAccount({ groups: ['staff', 'htmls-admins'] });
    const member = await linkedMember(sub);
    const first = await ssoSignIn(new Browser(), sub);
    expect((await meWithCookie(first.session!, member.id)).json.role).toBe('admin');
    // An admin-role account may manage users, as the Admin Token may.
    expect((await call('GET', '/api/users', { token: first.session })).status).toBe(200);

    idp().accounts.set(sub, { ...idp().accounts.get(sub), groups: ['staff'] });
    const second = await ssoSignIn(new Browser(), sub);
    expect((await meWithCookie(second.session!, member.id)).json.role).toBe('member');
    // The role is the account's: the first session lost it too.
    expect((await call('GET', '/api/users', { token: first.session })).status).toBe(403);
  });

  it('refuses a return_to of another origin before leaving for the provider', async () => {
    for (const bad of ['https://evil.example/files', '//evil.example/files', '/\\evil.example/files', 'javascript:alert(1)']) {
      const res = await new Browser().get(`${baseUrl()}/api/auth/oidc/start?return_to=${encodeURIComponent(bad)}`);
      expect([bad, res.status, res.headers.get('location')]).toEqual([bad, 302, '/files?sso_error=invalid_return_to']);
    }
  });

  it('refuses a disabled account', async () => {
    const sub = idpAccount();
    const member = await linkedMember(sub);
    expect((await call('PATCH', `/api/users/${member.id}`, { token: TEST_ADMIN_TOKEN, body: { status: 'disabled' } })).status).toBe(200);
    const r = await ssoSignIn(new Browser(), sub);
    expect(r.landed.searchParams.get('sso_error')).toBe('account_disabled');
    expect(r.session).toBeUndefined();
  });
});

describe('GET · DELETE /api/auth/oidc/identity', () => {
  it('shows the linked identity, and unlinking it stops its sign-in', async () => {
    const sub = idpAccount({ email: 'shown@idp().example' });
    const member = await linkedMember(sub);
    const r = await call('GET', '/api/auth/oidc/identity', { token: member.token });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ provider: { name: 'Test IdP' }, identity: { email: 'shown@idp().example' }, has_password: true });
    expect((await call('DELETE', '/api/auth/oidc/identity', { token: member.token })).status).toBe(204);
    expect((await call('GET', '/api/auth/oidc/identity', { token: member.token })).json.identity).toBeNull();
    expect((await ssoSignIn(new Browser(), sub)).landed.searchParams.get('sso_error')).toBe('not_linked');
    expect((await call('DELETE', '/api/auth/oidc/identity', { token: member.token })).status).toBe(404);
  });

  it('is 401 without a session', async () => {
    expect((await call('GET', '/api/auth/oidc/identity')).status).toBe(401);
    expect((await call('DELETE', '/api/auth/oidc/identity')).status).toBe(401);
  });
});

describe('GET /api/auth/oidc/start?link=1', () => {
  it('links only for a session that came with a navigation from this origin (a planted cookie links nothing)', async () => {
    const member = await registerMember();
    const sub = idpAccount();
    const browser = new Browser();
    browser.setCookie(new URL(baseUrl()).origin, 'htmls_user_session', member.token);
    const crossSite = await ssoSignIn(browser, sub, { query: 'link=1', startHeaders: { 'Sec-Fetch-Site': 'same-site' } });
    expect(crossSite.landed.searchParams.get('sso_error')).toBe('unauthenticated');
    // Nothing was linked: the identity still signs in to nobody.
    expect((await ssoSignIn(new Browser(), sub)).landed.searchParams.get('sso_error')).toBe('not_linked');
  });

  it("refuses to link an identity that is another member's", async () => {
    const sub = idpAccount();
    await linkedMember(sub);
    const other = await registerMember();
    const browser = new Browser();
    browser.setCookie(new URL(baseUrl()).origin, 'htmls_user_session', other.token);
    const r = await ssoSignIn(browser, sub, { query: 'link=1', startHeaders: sameOrigin });
    expect(r.landed.searchParams.get('sso_error')).toBe('identity_in_use');
  });
});
