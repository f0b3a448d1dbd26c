/**
 * Bearer guessing, cookie tossing and cross-origin logout at the HTTP level (Chromium versions in e2e/security-cookies.spec.ts):
 * Admin Token guessing through Bearer, cookie tossing, logout from another site.
 */
import { describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { adminSession, baseUrl, call, randomIp } from './support/http';
import { TEST_ADMIN_TOKEN } from './support/server';
import { createMember } from './support/members';

useFileServer();

describe('Bearer guessing counts against the login limit (item 3)', () => {
  it('answers 429 after 10 wrong Bearer tokens from one address, even for the right Admin Token; other addresses are untouched', async () => {
    const ip = randomIp();
    for (let i = 0; i < 10; i++) {
      const r = await call('GET', '/api/shares', { ip, token: `guess-${i}-${'x'.repeat(20)}` });
      expect(r.status).toBe(401);
    }
    const limited = await call('GET', '/api/shares', { ip, token: 'guess-11-xxxxxxxxxxxxxxxxxxxx' });
    expect(limited.status).toBe(429);
    expect(limited.json.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // A correct guess past the limit is not confirmed.
    expect((await call('GET', '/api/auth/me', { ip, token: TEST_ADMIN_TOKEN })).status).toBe(429);
    // The same counter as the login form.
    expect((await call('POST', '/api/auth/login', { ip, body: { token: TEST_ADMIN_TOKEN } })).status).toBe(429);
    // A live session still works from that address; the Admin Token from another one.
    const s = await adminSession();
    expect((await call('GET', '/api/auth/me', { ip, token: s.token })).status).toBe(200);
    expect((await call('GET', '/api/auth/me', { token: TEST_ADMIN_TOKEN })).status).toBe(200);
  });

  it('wrong Bearers and wrong logins share one budget per address', async () => {
    const ip = randomIp();
    for (let i = 0; i < 5; i++) expect((await call('POST', '/api/auth/login', { ip, body: { token: `nope-${i}` } })).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await call('GET', '/api/auth/me', { ip, token: `nope-bearer-${i}` })).status).toBe(401);
    expect((await call('GET', '/api/auth/me', { ip, token: 'one-more' })).status).toBe(429);
  });

  it('takes the raw Admin Token as Bearer only where scripts need it, not on /api/auth/check', async () => {
    const r = await call('GET', '/api/auth/check', { token: TEST_ADMIN_TOKEN });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ authenticated: false, role: null });
    expect((await call('GET', '/api/users', { token: TEST_ADMIN_TOKEN })).status).toBe(200);
  });

  it('a token changed online needs 16 characters and is not a known-weak value', async () => {
    const s = await adminSession();
    const change = (token: string) => call('PATCH', '/api/auth/token', { token: s.token, body: { token } });
    const short = await change('fifteen-chars-x');
    expect(short.status).toBe(400);
    expect(short.json.code).toBe('token_too_short');
    for (const weak of ['Password-Password-1', 'aaaaaaaaaaaaaaaaaaaaaaaa', 'abababab12121212', 'correct horse battery staple', 'qwerty-uiop-asdfgh']) {
      const r = await change(weak);
      expect(r.status, weak).toBe(400);
      expect(r.json.code, weak).toBe('token_too_weak');
    }
    // Nothing changed.
    expect((await call('GET', '/api/auth/me', { token: TEST_ADMIN_TOKEN })).status).toBe(200);
  });
});

describe('cookie tossing (item 6)', () => {
  it('two session cookies of one name make the request unauthenticated and clear them', async () => {
    const victim = await createMember();
    const attacker = await createMember();
    // What a hosted page on a same-site origin can plant: the longer path is sent first.
    const cookie = `${attacker.cookie}; ${victim.cookie}`;
    const r = await call('GET', '/api/shares', { cookie });
    expect(r.status).toBe(401);
    expect(r.json.code).toBe('unauthenticated');
    const cleared = r.cookies.filter((c) => c.startsWith('htmls_user_session=;'));
    expect(cleared.some((c) => /Path=\/api\/shares(;|$)/.test(c) && /Max-Age=0/.test(c))).toBe(true);
    expect(cleared.some((c) => /Path=\/(;|$)/.test(c))).toBe(true);
    // An upload cannot land in the attacker's account either.
    const init = await call('POST', '/api/shares/upload/init', { cookie, body: { files: [{ path: 'a.txt', size: 1 }] } });
    expect(init.status).toBe(401);
    // Either cookie alone still works.
    expect((await call('GET', '/api/auth/me', { cookie: victim.cookie })).json.user.id).toBe(victim.id);
  });

  it('a duplicate admin cookie beside a valid one is refused too', async () => {
    const s = await adminSession();
    const r = await call('GET', '/api/users', { cookie: `htmls_admin_session=planted; ${s.cookie}` });
    expect(r.status).toBe(401);
  });
});

describe('logout from another site (item 8)', () => {
  it('refuses a cross-site or same-site-but-cross-origin logout with 403 and sets no cookie', async () => {
    const s = await adminSession();
    const foreign = await call('POST', '/api/auth/logout', { cookie: s.cookie, headers: { Origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.cookies).toHaveLength(0);
    const sameSite = await fetch(`${baseUrl()}/api/auth/logout`, { method: 'POST', headers: { Cookie: s.cookie, 'Sec-Fetch-Site': 'same-site', 'X-Forwarded-For': randomIp() } });
    expect(sameSite.status).toBe(403);
    // The session survived both.
    expect((await call('GET', '/api/auth/me', { cookie: s.cookie })).status).toBe(200);
    const own = await call('POST', '/api/auth/logout', { cookie: s.cookie });
    expect(own.status).toBe(200);
    expect((await call('GET', '/api/auth/me', { cookie: s.cookie })).status).toBe(401);
  });
});

describe('cookie-jar overflow (issue 22, finding 3; the Chromium attack is e2e/security-cookie-overflow.spec.ts)', () => {
  it("a planted session cookie beside the victim console's X-Htmls-Account is refused, cleared, and nothing lands in the attacker's account", async () => {
    const victim = await createMember();
    const attacker = await createMember();
    // The victim's cookie was pushed out of the jar; the attacker's is the only one left.
    const asVictimConsole = { cookie: attacker.cookie, headers: { 'X-Htmls-Account': victim.id }, ip: randomIp() };
    const me = await call('GET', '/api/auth/me', asVictimConsole);
    expect(me.status).toBe(401);
    expect(me.json.code).toBe('unauthenticated');
    const cleared = me.cookies.filter((c) => c.startsWith('htmls_user_session=;') && /Max-Age=0/.test(c));
    expect(cleared.some((c) => /Path=\/(;|$)/.test(c) && !/Domain=/.test(c))).toBe(true);
    const init = await call('POST', '/api/shares/upload/init', { ...asVictimConsole, body: { files: [{ path: 'secret.txt', size: 6 }] } });
    expect(init.status).toBe(401);
    expect((await call('GET', '/api/shares', { token: attacker.token })).json.shares).toHaveLength(0);
    // The admin console's header does not take a member's cookie either.
    expect((await call('GET', '/api/auth/me', { cookie: attacker.cookie, headers: { 'X-Htmls-Account': 'admin' } })).status).toBe(401);
  });

  it('a session cookie without X-Htmls-Account signs nobody in; the check says so; Bearer needs no header', async () => {
    const m = await createMember();
    const s = await adminSession();
    for (const cookie of [m.cookie, s.cookie]) {
      const r = await call('GET', '/api/auth/me', { cookie, headers: { 'X-Htmls-Account': '' } });
      expect(r.status).toBe(401);
      expect(r.cookies).toHaveLength(0);
      expect((await call('GET', '/api/auth/check', { cookie, headers: { 'X-Htmls-Account': '' } })).json.authenticated).toBe(false);
    }
    // The console's own header: signed in.
    expect((await call('GET', '/api/auth/me', { cookie: m.cookie, headers: { 'X-Htmls-Account': m.id } })).json.user.id).toBe(m.id);
    expect((await call('GET', '/api/auth/me', { cookie: `${m.cookie}; ${s.cookie}`, headers: { 'X-Htmls-Account': `${m.id} admin` } })).status).toBe(200);
    expect((await call('GET', '/api/auth/me', { token: m.token })).json.user.id).toBe(m.id);
  });
});
