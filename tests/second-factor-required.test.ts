/**
 * REQUIRE_2FA=all (issue 42, item 3): an account without a second factor is led to enrol at its
 * next sign-in — a challenge, no session — and enrolment with that challenge ends the sign-in.
 */
import { Secret, TOTP } from 'otpauth';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { baseUrl, call } from './support/http';
import { uniqueName } from './support/members';
import { TEST_ADMIN_TOKEN } from './support/server';
import { SoftAuthenticator } from './support/webauthn';

useFileServer({ REQUIRE_2FA: 'all' });

const codeAt = (secret: string, at = Date.now()) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });

async function newAccount(role: 'member' | 'admin' = 'member') {
  const username = uniqueName();
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const c = await call('POST', '/api/users', { token: TEST_ADMIN_TOKEN, body: { username, password, role, quota_bytes: 1024 ** 2 } });
  expect(c.status).toBe(201);
  return { username, password };
}

describe('REQUIRE_2FA=all', () => {
  it('says so in /api/auth/methods', async () => {
    expect((await call('GET', '/api/auth/methods')).json.require_2fa).toBe('all');
  });

  it('answers "enroll" with no session; setup and enable with the challenge sign in with recovery codes', async () => {
    const a = await newAccount();
    const login = await call('POST', '/api/auth/login', { body: a });
    expect(login.status).toBe(200);
    expect(login.json).toEqual({ second_factor: 'enroll', challenge: expect.any(String), expires_at: expect.any(String) });
    expect(login.cookies.filter((c) => c.startsWith('htmls_user_session=') && !/Max-Age=0/i.test(c))).toEqual([]);
    const { challenge } = login.json;

    // The enrolment challenge is no second factor.
    expect((await call('POST', '/api/auth/login/second-factor', { body: { challenge, code: '123456' } })).status).toBe(400);
    // Without a challenge or a session: nothing.
    expect((await call('POST', '/api/auth/totp/setup', { body: {} })).status).toBe(401);
    expect((await call('POST', '/api/auth/totp/setup', { body: { challenge: 'forged' } })).status).toBe(401);

    const setup = await call('POST', '/api/auth/totp/setup', { body: { challenge } });
    expect(setup.status).toBe(200);
    const wrong = await call('POST', '/api/auth/totp/enable', { body: { challenge, code: String((Number(codeAt(setup.json.secret)) + 1) % 1e6).padStart(6, '0') } });
    expect(wrong.status).toBe(401);
    expect(wrong.json.code).toBe('wrong_code');
    const enable = await call('POST', '/api/auth/totp/enable', { body: { challenge, code: codeAt(setup.json.secret) } });
    expect(enable.status).toBe(200);
    expect(enable.json.recovery_codes).toHaveLength(10);
    expect(enable.json.user.username).toBe(a.username);
    expect(enable.cookies.some((c) => c.startsWith('htmls_user_session='))).toBe(true);
    expect((await call('GET', '/api/auth/me', { token: enable.json.token })).status).toBe(200);
    // The challenge is spent.
    expect((await call('POST', '/api/auth/totp/enable', { body: { challenge, code: codeAt(setup.json.secret, Date.now() + 30_000) } })).status).toBe(401);

    // From now on: the code is required.
    const next = await call('POST', '/api/auth/login', { body: a });
    expect(next.json.second_factor).toBe('required');
    const ok = await call('POST', '/api/auth/login/second-factor', { body: { challenge: next.json.challenge, code: codeAt(setup.json.secret, Date.now() + 30_000) } });
    expect(ok.status).toBe(200);
  });

  it('self-registration ends as a sign-in does: "enroll" with no session, and enrolment signs in', async () => {
    const username = uniqueName();
    const password = `pw-${randomBytes(6).toString('hex')}`;
    const reg = await call('POST', '/api/auth/register', { body: { username, password } });
    expect(reg.status).toBe(201);
    // The same answer as a password sign-in of an account that must enrol: no token, no cookie.
    expect(reg.json).toEqual({ second_factor: 'enroll', challenge: expect.any(String), expires_at: expect.any(String) });
    expect(reg.cookies.filter((c) => c.startsWith('htmls_user_session=') && !/Max-Age=0/i.test(c))).toEqual([]);
    const login = await call('POST', '/api/auth/login', { body: { username, password } });
    expect(Object.keys(reg.json).sort()).toEqual(Object.keys(login.json).sort());
    expect(login.json.second_factor).toBe('enroll');

    const { challenge } = reg.json;
    const setup = await call('POST', '/api/auth/totp/setup', { body: { challenge } });
    expect(setup.status).toBe(200);
    const enable = await call('POST', '/api/auth/totp/enable', { body: { challenge, code: codeAt(setup.json.secret) } });
    expect(enable.status).toBe(200);
    expect(enable.json.user.username).toBe(username);
    expect((await call('GET', '/api/auth/me', { token: enable.json.token })).json.user.username).toBe(username);
  });

  it('an administrator account too; the Admin Token itself stays the emergency credential', async () => {
    const a = await newAccount('admin');
    expect((await call('POST', '/api/auth/login', { body: a })).json.second_factor).toBe('enroll');
    const token = await call('POST', '/api/auth/login', { body: { token: TEST_ADMIN_TOKEN } });
    expect(token.status).toBe(200);
    expect(token.json.role).toBe('admin');
    expect(token.json.token).toEqual(expect.any(String));
  });

  it('a passkey counts as the second factor: signing in with one needs nothing more, and a password sign-in asks for it instead of enrolment', async () => {
    const a = await newAccount();
    const first = await call('POST', '/api/auth/login', { body: a });
    const { challenge } = first.json;
    const setup = await call('POST', '/api/auth/totp/setup', { body: { challenge } });
    const enable = await call('POST', '/api/auth/totp/enable', { body: { challenge, code: codeAt(setup.json.secret) } });
    const token = enable.json.token as string;
    const auth = new SoftAuthenticator(baseUrl());
    const ro = await call('POST', '/api/auth/passkeys/options', { token, body: { purpose: 'register' } });
    expect((await call('POST', '/api/auth/passkeys', { token, body: { name: 'Laptop', response: auth.register(ro.json) } })).status).toBe(201);
    expect((await call('POST', '/api/auth/totp/disable', { token, body: { password: a.password } })).status).toBe(204);

    const lo = await call('POST', '/api/auth/passkeys/options', { body: { purpose: 'login' } });
    const signedIn = await call('POST', '/api/auth/passkeys/login', { body: { response: auth.assert(lo.json) } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.json.token).toEqual(expect.any(String));

    const withPassword = await call('POST', '/api/auth/login', { body: a });
    expect(withPassword.json.second_factor).toBe('required');
    const so = await call('POST', '/api/auth/passkeys/options', { body: { purpose: 'second_factor', challenge: withPassword.json.challenge } });
    const ok = await call('POST', '/api/auth/login/second-factor', { body: { challenge: withPassword.json.challenge, response: auth.assert(so.json) } });
    expect(ok.status).toBe(200);
    expect(ok.json.user.username).toBe(a.username);
  });
});
