/**
 * Issue 42, items 3–5: TOTP as a second factor, recovery codes, sessions one can see and end,
 * against the real server. Codes are computed here from the secret the setup answers, as an
 * authenticator app would.
 */
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { adminSession, call } from './support/http';
import { createMember, type Member } from './support/members';
import { TEST_ADMIN_TOKEN } from './support/server';

useFileServer();

const codeAt = (secret: string, at = Date.now()) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });
/** A code of the next step: still within ±1 of now, later than one taken now. */
const nextCode = (secret: string) => codeAt(secret, Date.now() + 30_000);
const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

interface Enrolled extends Member {
  secret: string;
  recovery: string[];
}

async function enroll(m?: Member): Promise<Enrolled> {
  const member = m ?? (await createMember());
  const setup = await call('POST', '/api/auth/totp/setup', { token: member.token, body: {} });
  expect(setup.status).toBe(200);
  expect(setup.json.otpauth_url).toMatch(/^otpauth:\/\/totp\/.*secret=/);
  const enable = await call('POST', '/api/auth/totp/enable', { token: member.token, body: { code: codeAt(setup.json.secret) } });
  expect(enable.status).toBe(200);
  expect(enable.json.recovery_codes).toHaveLength(10);
  expect(new Set(enable.json.recovery_codes).size).toBe(10);
  return { ...member, secret: setup.json.secret, recovery: enable.json.recovery_codes };
}

async function challengeFor(m: Member): Promise<string> {
  const r = await call('POST', '/api/auth/login', { body: { username: m.username, password: m.password } });
  expect(r.status).toBe(200);
  expect(r.json.second_factor).toBe('required');
  expect(r.json.token).toBeUndefined();
  expect(r.cookies.filter((c) => c.startsWith('htmls_user_session=') && !/Max-Age=0/i.test(c))).toEqual([]);
  return r.json.challenge;
}

const secondFactor = (body: Record<string, unknown>) => call('POST', '/api/auth/login/second-factor', { body });
const me = (token: string) => call('GET', '/api/auth/me', { token });

describe('GET /api/auth/methods', () => {
  it('says password sign-in is on and 2FA is not required by default', async () => {
    const r = await call('GET', '/api/auth/methods');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ password: true, oidc: null, passkeys: true, require_2fa: 'off' });
  });
});

describe('TOTP', () => {
  it('enrols, then signs in only with a code; the same code is refused the second time', async () => {
    const m = await enroll();
    const code = nextCode(m.secret);
    const ok = await secondFactor({ challenge: await challengeFor(m), code });
    expect(ok.status).toBe(200);
    expect(ok.json.user.username).toBe(m.username);
    expect(ok.cookies.some((c) => c.startsWith('htmls_user_session='))).toBe(true);
    expect((await me(ok.json.token)).status).toBe(200);

    const replay = await secondFactor({ challenge: await challengeFor(m), code });
    expect(replay.status).toBe(401);
    expect(replay.json.code).toBe('wrong_code');
    // The code that enabled it (an earlier step) is refused too.
    const earlier = await secondFactor({ challenge: await challengeFor(m), code: codeAt(m.secret, Date.now() - 30_000) });
    expect(earlier.status).toBe(401);
  });

  it('refuses a wrong code (401 wrong_code), and values of the wrong type (400), with no session', async () => {
    const m = await enroll();
    const challenge = await challengeFor(m);
    const wrong = await secondFactor({ challenge, code: wrongOf(codeAt(m.secret)) });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: expect.any(String), code: 'wrong_code' });
    for (const code of [{ valid: true }, true, 123456, [codeAt(m.secret)]]) {
      const r = await secondFactor({ challenge, code });
      expect(r.status).toBe(400);
      expect(r.json.token).toBeUndefined();
    }
    expect((await secondFactor({ challenge })).status).toBe(400);
    expect((await secondFactor({ challenge: 'not-a-challenge', code: nextCode(m.secret) })).status).toBe(401);
  });

  it('allows 5 tries of a challenge: the 6th is 429, even with the right code', async () => {
    const m = await enroll();
    const challenge = await challengeFor(m);
    const wrong = wrongOf(nextCode(m.secret));
    for (let i = 0; i < 5; i++) expect((await secondFactor({ challenge, code: wrong })).status).toBe(401);
    const sixth = await secondFactor({ challenge, code: nextCode(m.secret) });
    expect(sixth.status).toBe(429);
    expect(sixth.json.code).toBe('rate_limited');
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    // A new challenge (the password again) works.
    expect((await secondFactor({ challenge: await challengeFor(m), code: nextCode(m.secret) })).status).toBe(200);
  });

  it('is rate-limited per account across challenges', async () => {
    const m = await enroll();
    const wrong = wrongOf(nextCode(m.secret));
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const challenge = await challengeFor(m);
      for (let j = 0; j < 5; j++) statuses.push((await secondFactor({ challenge, code: wrong })).status);
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(20);
  });

  it('takes a recovery code once (any case, spaces or dashes), never twice', async () => {
    const m = await enroll();
    const [first] = m.recovery;
    const ok = await secondFactor({ challenge: await challengeFor(m), recovery_code: ` ${first.toUpperCase().replace('-', ' ')} ` });
    expect(ok.status).toBe(200);
    expect(ok.json.token).toEqual(expect.any(String));
    const again = await secondFactor({ challenge: await challengeFor(m), recovery_code: first });
    expect(again.status).toBe(401);
    expect(again.json.code).toBe('wrong_code');
    // Another member's code is nobody's but theirs.
    const other = await enroll();
    expect((await secondFactor({ challenge: await challengeFor(other), recovery_code: m.recovery[1] })).status).toBe(401);
  });

  it('never answers the secret again once on, and refuses a second setup', async () => {
    const m = await enroll();
    const again = await call('POST', '/api/auth/totp/setup', { token: m.token, body: {} });
    expect(again.status).toBe(409);
    expect(JSON.stringify((await me(m.token)).json)).not.toContain(m.secret);
  });

  it('a wrong code does not enable it', async () => {
    const m = await createMember();
    const setup = await call('POST', '/api/auth/totp/setup', { token: m.token, body: {} });
    const r = await call('POST', '/api/auth/totp/enable', { token: m.token, body: { code: wrongOf(codeAt(setup.json.secret)) } });
    expect(r.status).toBe(401);
    expect(r.json.code).toBe('wrong_code');
    const login = await call('POST', '/api/auth/login', { body: { username: m.username, password: m.password } });
    expect(login.json.token).toEqual(expect.any(String));
  });

  it('enabling it ends the member’s other sessions, not the one that enabled it', async () => {
    const m = await createMember();
    const other = await call('POST', '/api/auth/login', { body: { username: m.username, password: m.password } });
    expect((await me(other.json.token)).status).toBe(200);
    await enroll(m);
    expect((await me(m.token)).status).toBe(200);
    expect((await me(other.json.token)).status).toBe(401);
  });

  it('turning it off needs the current password: a wrong one (or a non-string) leaves it on (CVE-2026-49467)', async () => {
    const m = await enroll();
    const wrong = await call('POST', '/api/auth/totp/disable', { token: m.token, body: { password: 'not-the-password' } });
    expect(wrong.status).toBe(401);
    expect(wrong.json.code).toBe('wrong_password');
    for (const password of [{ then: 1 }, true, 1, null, ['x']]) {
      expect((await call('POST', '/api/auth/totp/disable', { token: m.token, body: { password } })).status).toBe(400);
    }
    expect((await call('POST', '/api/auth/totp/disable', { token: m.token, body: {} })).status).toBe(400);
    expect((await call('POST', '/api/auth/totp/disable', { token: m.token, body: { password: '' } })).status).toBe(401);
    // Still on: the password alone does not sign in.
    await challengeFor(m);
    const ok = await call('POST', '/api/auth/totp/disable', { token: m.token, body: { password: m.password } });
    expect(ok.status).toBe(204);
    const login = await call('POST', '/api/auth/login', { body: { username: m.username, password: m.password } });
    expect(login.json.second_factor).toBeUndefined();
    expect(login.json.token).toEqual(expect.any(String));
  });

  it('is for members: an Admin Token session gets 403, nobody gets 401', async () => {
    const admin = await adminSession();
    expect((await call('POST', '/api/auth/totp/setup', { token: admin.token, body: {} })).status).toBe(403);
    expect((await call('POST', '/api/auth/totp/disable', { token: admin.token, body: { password: 'x' } })).status).toBe(403);
    expect((await call('GET', '/api/auth/sessions', { token: admin.token })).status).toBe(403);
    expect((await call('POST', '/api/auth/totp/setup', { body: {} })).status).toBe(401);
    expect((await call('POST', '/api/auth/totp/disable', { body: { password: 'x' } })).status).toBe(401);
  });
});

describe('sessions', () => {
  const list = (token: string) => call('GET', '/api/auth/sessions', { token });
  const login = async (m: Member, ua: string) =>
    (await call('POST', '/api/auth/login', { body: { username: m.username, password: m.password }, headers: { 'User-Agent': ua }, ip: '203.0.113.77' })).json.token as string;

  it('lists each session with its method, user agent, network and last use; the caller’s is current', async () => {
    const m = await createMember();
    const phone = await login(m, 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148 Safari/604.1');
    const r = await list(m.token);
    expect(r.status).toBe(200);
    expect(r.json.sessions).toHaveLength(2);
    const current = r.json.sessions.find((s: { current: boolean }) => s.current);
    const other = r.json.sessions.find((s: { current: boolean }) => !s.current);
    expect(current).toMatchObject({ method: 'password', created_at: expect.any(String), last_used_at: expect.any(String) });
    expect(other).toMatchObject({ method: 'password', network: '203.0.113.0/24' });
    expect(other.user_agent).toContain('iPhone');
    expect(JSON.stringify(r.json)).not.toContain('203.0.113.77');
    expect(JSON.stringify(r.json)).not.toContain(phone);
  });

  it('ends one (404 for another member’s), and all but the current', async () => {
    const m = await createMember();
    const a = await login(m, 'A');
    const b = await login(m, 'B');
    const sessions = (await list(m.token)).json.sessions as { id: string; current: boolean; user_agent: string }[];
    const idOfA = sessions.find((s) => s.user_agent === 'A')!.id;
    const stranger = await createMember();
    expect((await call('DELETE', `/api/auth/sessions/${idOfA}`, { token: stranger.token })).status).toBe(404);
    expect((await call('DELETE', '/api/auth/sessions/not-a-uuid', { token: m.token })).status).toBe(404);
    expect((await me(a)).status).toBe(200);
    expect((await call('DELETE', `/api/auth/sessions/${idOfA}`, { token: m.token })).status).toBe(204);
    expect((await me(a)).status).toBe(401);
    expect((await me(b)).status).toBe(200);
    expect((await call('DELETE', `/api/auth/sessions/${idOfA}`, { token: m.token })).status).toBe(404);

    const c = await login(m, 'C');
    expect((await call('DELETE', '/api/auth/sessions', { token: m.token })).status).toBe(204);
    expect((await me(b)).status).toBe(401);
    expect((await me(c)).status).toBe(401);
    expect((await me(m.token)).status).toBe(200);
    expect((await list(m.token)).json.sessions).toHaveLength(1);
  });

  it('a password change needs the current password and ends the other sessions', async () => {
    const m = await createMember();
    const other = await login(m, 'other');
    const wrong = await call('POST', '/api/auth/password', { token: m.token, body: { current_password: 'nope-nope', password: 'new-password-1' } });
    expect(wrong.status).toBe(401);
    expect(wrong.json.code).toBe('wrong_password');
    expect((await me(other)).status).toBe(200);
    const ok = await call('POST', '/api/auth/password', { token: m.token, body: { current_password: m.password, password: 'new-password-1' } });
    expect(ok.status).toBe(200);
    expect((await me(other)).status).toBe(401);
    expect((await me(m.token)).status).toBe(200);
    expect((await call('POST', '/api/auth/login', { body: { username: m.username, password: 'new-password-1' } })).status).toBe(200);
    expect((await call('POST', '/api/auth/login', { body: { username: m.username, password: m.password } })).status).toBe(401);
  });

  it('changing the e-mail needs the current password: 400 without, 401 wrong_password (rate-limited), then it changes', async () => {
    const m = await createMember();
    const profile = (body: Record<string, unknown>, ip?: string) => call('PATCH', '/api/auth/profile', { token: m.token, body, ip });
    const missing = await profile({ email: 'new@example.test' });
    expect([missing.status, missing.json.code]).toEqual([400, 'invalid_request']);
    const wrong = await profile({ email: 'new@example.test', current_password: 'not-the-password' });
    expect([wrong.status, wrong.json.code]).toEqual([401, 'wrong_password']);
    expect((await me(m.token)).json.user.email).toBe('');
    // Other fields need nothing more.
    expect((await profile({ display_name: 'Ada' })).status).toBe(200);
    const ok = await profile({ email: 'new@example.test', current_password: m.password });
    expect(ok.status).toBe(200);
    expect(ok.json.user.email).toBe('new@example.test');
    // The same address again is no change.
    expect((await profile({ email: 'new@example.test', display_name: 'Ada L' })).status).toBe(200);

    // Wrong passwords count per account (with TOTP setup/disable and the password change), from any address.
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await profile({ email: 'other@example.test', current_password: `wrong-${i}` }, `198.51.100.${i + 1}`)).status);
    expect(statuses.slice(0, 18).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const stillLimited = await profile({ email: 'other@example.test', current_password: m.password });
    expect(stillLimited.status).toBe(429);
    expect((await me(m.token)).json.user.email).toBe('new@example.test');
  });

  it('the administrator can end a member’s sessions', async () => {
    const m = await createMember();
    expect((await call('DELETE', `/api/users/${m.id}/sessions`, { token: m.token })).status).toBe(403);
    expect((await call('DELETE', `/api/users/${m.id}/sessions`, { token: TEST_ADMIN_TOKEN })).status).toBe(204);
    expect((await me(m.token)).status).toBe(401);
    expect((await call('DELETE', '/api/users/00000000-0000-4000-8000-000000000000/sessions', { token: TEST_ADMIN_TOKEN })).status).toBe(404);
  });

  it('records the sign-in method of a second-factor session', async () => {
    const m = await enroll();
    const ok = await secondFactor({ challenge: await challengeFor(m), code: nextCode(m.secret) });
    const rec = await secondFactor({ challenge: await challengeFor(m), recovery_code: m.recovery[0] });
    const methods = ((await list(ok.json.token)).json.sessions as { method: string }[]).map((s) => s.method).sort();
    expect(methods).toEqual(['password', 'password+recovery', 'password+totp']);
    expect(rec.status).toBe(200);
  });
});
