/**
 * Issue 42, item 2: passkeys (WebAuthn) against the real server. The browser's part is played
 * by tests/support/webauthn.ts, a software authenticator that signs with a real P-256 key:
 * every check of @simplewebauthn/server runs (signature, challenge, origin, RP ID, flags,
 * counter). The attacks: a challenge the server never gave, one used twice, a credential of
 * another account, a wrong origin, no user verification, a cloned authenticator's old counter.
 */
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { adminSession, baseUrl, call, randomIp } from './support/http';
import { createMember, type Member } from './support/members';
import { SoftAuthenticator } from './support/webauthn';

useFileServer();

const options = (body: Record<string, unknown>, opts: { token?: string; ip?: string } = {}) => call('POST', '/api/auth/passkeys/options', { ...opts, body });
const login = (response: unknown, ip?: string) => call('POST', '/api/auth/passkeys/login', { body: { response }, ip });
const list = (token: string) => call('GET', '/api/auth/passkeys', { token });

/** A member with one passkey on its own software authenticator. */
async function withPasskey(m?: Member, name = 'Laptop'): Promise<Member & { auth: SoftAuthenticator; passkeyId: string }> {
  const member = m ?? (await createMember());
  const auth = new SoftAuthenticator(baseUrl());
  const o = await options({ purpose: 'register' }, { token: member.token });
  expect(o.status).toBe(200);
  expect(o.json.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
  const r = await call('POST', '/api/auth/passkeys', { token: member.token, body: { name, response: auth.register(o.json) } });
  expect(r.status).toBe(201);
  expect(r.json.passkey).toEqual({ id: expect.any(String), name, created_at: expect.any(String), last_used_at: null });
  return { ...member, auth, passkeyId: r.json.passkey.id };
}

async function signIn(auth: SoftAuthenticator, ip = randomIp()) {
  const o = await options({ purpose: 'login' }, { ip });
  expect(o.status).toBe(200);
  expect(o.json.allowCredentials ?? []).toEqual([]);
  return { o: o.json, r: await login(auth.assert(o.json), ip) };
}

const codeAt = (secret: string, at = Date.now()) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });

async function turnOnTotp(m: Member): Promise<string> {
  const setup = await call('POST', '/api/auth/totp/setup', { token: m.token, body: {} });
  const enable = await call('POST', '/api/auth/totp/enable', { token: m.token, body: { code: codeAt(setup.json.secret) } });
  expect(enable.status).toBe(200);
  return setup.json.secret;
}

describe('passkeys', () => {
  it('GET /api/auth/methods offers them', async () => {
    expect((await call('GET', '/api/auth/methods')).json.passkeys).toBe(true);
  });

  it('registers several, lists, renames; signs in with one (a session recorded as passkey, last used set)', async () => {
    const m = await withPasskey();
    const second = await withPasskey(m, 'Phone');
    const names = (await list(m.token)).json.passkeys.map((p: { name: string }) => p.name);
    expect(names).toEqual(['Laptop', 'Phone']);

    const renamed = await call('PATCH', `/api/auth/passkeys/${second.passkeyId}`, { token: m.token, body: { name: '  Work phone ' } });
    expect(renamed.status).toBe(200);
    expect(renamed.json.passkey.name).toBe('Work phone');
    expect((await call('PATCH', `/api/auth/passkeys/${second.passkeyId}`, { token: m.token, body: { name: '' } })).status).toBe(400);

    const { r } = await signIn(second.auth);
    expect(r.status).toBe(200);
    expect(r.json.user.id).toBe(m.id);
    expect(r.cookies.some((c) => c.startsWith('htmls_user_session='))).toBe(true);
    const sessions = (await call('GET', '/api/auth/sessions', { token: r.json.token })).json.sessions;
    expect(sessions.find((s: { current: boolean }) => s.current).method).toBe('passkey');
    const after = (await list(m.token)).json.passkeys;
    expect(after.find((p: { id: string }) => p.id === second.passkeyId).last_used_at).toEqual(expect.any(String));
    expect(after.find((p: { id: string }) => p.id === m.passkeyId).last_used_at).toBeNull();
  });

  it('is for member sessions: 401 without one for register, 403 for the Admin Token', async () => {
    expect((await options({ purpose: 'register' })).status).toBe(401);
    const admin = await adminSession();
    expect((await options({ purpose: 'register' }, { token: admin.token })).status).toBe(403);
    expect((await call('GET', '/api/auth/passkeys', { token: admin.token })).status).toBe(403);
  });

  it('refuses a challenge the server never gave (register 400, sign-in 401)', async () => {
    const m = await createMember();
    const auth = new SoftAuthenticator(baseUrl());
    const o = await options({ purpose: 'register' }, { token: m.token });
    const forged = auth.register(o.json, { challenge: Buffer.from('made up by the client').toString('base64url') });
    const r = await call('POST', '/api/auth/passkeys', { token: m.token, body: { name: 'x', response: forged } });
    expect(r.status).toBe(400);
    expect((await list(m.token)).json.passkeys).toEqual([]);

    const p = await withPasskey();
    const lo = await options({ purpose: 'login' });
    const wrong = await login(p.auth.assert(lo.json, undefined, { challenge: Buffer.from('not issued').toString('base64url') }));
    expect(wrong.status).toBe(401);
    expect(wrong.json.token).toBeUndefined();
  });

  it('uses each challenge once: a second answer to the same options is refused', async () => {
    const p = await withPasskey();
    const { o, r } = await signIn(p.auth);
    expect(r.status).toBe(200);
    // A new, validly signed assertion (a later counter) over the same challenge.
    const again = await login(p.auth.assert(o));
    expect(again.status).toBe(401);

    // Registration options too.
    const m = await createMember();
    const auth = new SoftAuthenticator(baseUrl());
    const ro = await options({ purpose: 'register' }, { token: m.token });
    expect((await call('POST', '/api/auth/passkeys', { token: m.token, body: { name: 'a', response: auth.register(ro.json) } })).status).toBe(201);
    expect((await call('POST', '/api/auth/passkeys', { token: m.token, body: { name: 'b', response: auth.register(ro.json) } })).status).toBe(400);
    expect((await list(m.token)).json.passkeys).toHaveLength(1);
  });

  it("does not take another member's registration options, nor another member's credential as a second factor or a confirmation", async () => {
    const a = await withPasskey();
    const b = await withPasskey();
    // Options asked by B, answered into A's session.
    const bo = await options({ purpose: 'register' }, { token: b.token });
    expect((await call('POST', '/api/auth/passkeys', { token: a.token, body: { name: 'x', response: new SoftAuthenticator(baseUrl()).register(bo.json) } })).status).toBe(400);

    // A confirms it is them (second_factor without a sign-in challenge) with B's passkey: refused.
    const ao = await options({ purpose: 'second_factor' }, { token: a.token });
    expect(ao.status).toBe(200);
    expect(ao.json.allowCredentials).toHaveLength(1);
    const del = await call('DELETE', `/api/auth/passkeys/${a.passkeyId}`, { token: a.token, body: { response: b.auth.assert(ao.json) } });
    expect(del.status).toBe(401);
    expect(del.json.code).toBe('wrong_password');
    expect((await list(a.token)).json.passkeys).toHaveLength(1);

    // A's sign-in waits for its second factor; B's passkey does not pass it.
    await turnOnTotp(a);
    const first = await call('POST', '/api/auth/login', { body: { username: a.username, password: a.password } });
    expect(first.json.second_factor).toBe('required');
    const so = await options({ purpose: 'second_factor', challenge: first.json.challenge });
    expect(so.status).toBe(200);
    const wrong = await call('POST', '/api/auth/login/second-factor', { body: { challenge: first.json.challenge, response: b.auth.assert(so.json) } });
    expect(wrong.status).toBe(401);
    expect(wrong.json.code).toBe('wrong_code');

    // A user handle naming another account than the credential's owner: refused.
    const lo = await options({ purpose: 'login' });
    const answer = a.auth.assert(lo.json);
    const forged = await login({ ...answer, response: { ...answer.response, userHandle: b.auth.credentials[0].userHandle } });
    expect(forged.status).toBe(401);
  });

  it('refuses a wrong origin, no user verification, and an older signature counter (a cloned authenticator)', async () => {
    const p = await withPasskey();
    const o1 = await options({ purpose: 'login' });
    expect((await login(p.auth.assert(o1.json, undefined, { origin: 'https://evil.example' }))).status).toBe(401);
    const o2 = await options({ purpose: 'login' });
    expect((await login(p.auth.assert(o2.json, undefined, { uv: false }))).status).toBe(401);
    const o3 = await options({ purpose: 'login' });
    expect((await login(p.auth.assert(o3.json, undefined, { rpId: 'evil.example' }))).status).toBe(401);

    const cred = p.auth.credentials[0];
    const ok = await signIn(p.auth);
    expect(ok.r.status).toBe(200);
    cred.counter -= 2; // the clone's count is behind the one the server saw
    const o4 = await options({ purpose: 'login' });
    expect((await login(p.auth.assert(o4.json))).status).toBe(401);
  });

  it('a passkey sign-in is both factors: no TOTP step after it; a password sign-in can pass its second factor with a passkey', async () => {
    const p = await withPasskey();
    await turnOnTotp(p);
    const { r } = await signIn(p.auth);
    expect(r.status).toBe(200);
    expect(r.json.second_factor).toBeUndefined();
    expect(r.json.token).toEqual(expect.any(String));

    const first = await call('POST', '/api/auth/login', { body: { username: p.username, password: p.password } });
    expect(first.json.second_factor).toBe('required');
    const so = await options({ purpose: 'second_factor', challenge: first.json.challenge });
    const ok = await call('POST', '/api/auth/login/second-factor', { body: { challenge: first.json.challenge, response: p.auth.assert(so.json) } });
    expect(ok.status).toBe(200);
    const sessions = (await call('GET', '/api/auth/sessions', { token: ok.json.token })).json.sessions;
    expect(sessions.find((s: { current: boolean }) => s.current).method).toBe('password+passkey');

    // TOTP off with a passkey instead of the password.
    const ro = await options({ purpose: 'second_factor' }, { token: ok.json.token });
    expect((await call('POST', '/api/auth/totp/disable', { token: ok.json.token, body: { response: p.auth.assert(ro.json) } })).status).toBe(204);
    expect((await call('GET', '/api/auth/me', { token: ok.json.token })).json.user.two_factor).toBe(false);
  });

  it('removes one freely; the last one needs the current password or a passkey again', async () => {
    const p = await withPasskey();
    const other = await withPasskey(p, 'Phone');
    expect((await call('DELETE', `/api/auth/passkeys/${other.passkeyId}`, { token: p.token })).status).toBe(204);
    expect((await call('DELETE', `/api/auth/passkeys/${other.passkeyId}`, { token: p.token })).status).toBe(404);

    expect((await call('DELETE', `/api/auth/passkeys/${p.passkeyId}`, { token: p.token })).status).toBe(401);
    const wrong = await call('DELETE', `/api/auth/passkeys/${p.passkeyId}`, { token: p.token, body: { password: 'not it' } });
    expect(wrong.status).toBe(401);
    expect(wrong.json.code).toBe('wrong_password');
    expect((await call('DELETE', `/api/auth/passkeys/${p.passkeyId}`, { token: p.token, body: { password: p.password } })).status).toBe(204);
    expect((await list(p.token)).json.passkeys).toEqual([]);
    // Gone: it signs in no more.
    expect((await signIn(p.auth)).r.status).toBe(401);

    const q = await withPasskey();
    const ro = await options({ purpose: 'second_factor' }, { token: q.token });
    expect((await call('DELETE', `/api/auth/passkeys/${q.passkeyId}`, { token: q.token, body: { response: q.auth.assert(ro.json) } })).status).toBe(204);
    // Another member's passkey id is not found.
    const r = await withPasskey();
    expect((await call('DELETE', `/api/auth/passkeys/${r.passkeyId}`, { token: q.token, body: { password: q.password } })).status).toBe(404);
  });

  it('rate-limits every new route per address (429 with Retry-After)', async () => {
    const junk = new SoftAuthenticator(baseUrl()).register({ challenge: 'AAAA', user: { id: 'x' } });
    const routes: [string, string, (ip: string, m: Member) => Promise<{ status: number; headers: Headers }>][] = [
      ['POST', '/api/auth/passkeys/options', (ip) => options({ purpose: 'login' }, { ip })],
      ['POST', '/api/auth/passkeys/login', (ip) => login(junk, ip)],
      ['POST', '/api/auth/passkeys', (ip, m) => call('POST', '/api/auth/passkeys', { token: m.token, ip, body: { name: 'x', response: junk } })],
      ['PATCH', '/api/auth/passkeys/:id', (ip, m) => call('PATCH', '/api/auth/passkeys/00000000-0000-4000-8000-000000000000', { token: m.token, ip, body: { name: 'x' } })],
      ['DELETE', '/api/auth/passkeys/:id', (ip, m) => call('DELETE', '/api/auth/passkeys/00000000-0000-4000-8000-000000000000', { token: m.token, ip })],
    ];
    for (const [method, path, send] of routes) {
      const ip = randomIp();
      const m = await createMember();
      let last = 0;
      for (let i = 0; i < 30; i++) last = (await send(ip, m)).status;
      expect(last).not.toBe(429);
      const r = await send(ip, m);
      expect([method, path, r.status]).toEqual([method, path, 429]);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
