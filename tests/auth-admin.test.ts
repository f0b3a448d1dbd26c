import { describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { adminSession, call, randomIp } from './support/http';
import { TEST_ADMIN_TOKEN } from './support/server';

useFileServer();

describe('POST /api/auth/login — Admin Token', () => {
  it('signs in, returns a session token and sets the admin cookie', async () => {
    const r = await call('POST', '/api/auth/login', { body: { token: TEST_ADMIN_TOKEN } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ role: 'admin', user: null });
    expect(r.json.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(r.json.expires_at)).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
    const set = r.cookies.find((c) => c.startsWith('htmls_admin_session='))!;
    expect(set).toContain('HttpOnly');
    expect(set).toContain('SameSite=Lax');
    expect(set).toContain('Max-Age=604800');
    expect(set).toContain('Path=/');
    expect(set).not.toContain('Secure'); // plain http test server
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses a wrong token with 401 and a generic message', async () => {
    const r = await call('POST', '/api/auth/login', { body: { token: 'not-the-token' } });
    expect(r.status).toBe(401);
    expect(r.json).toEqual({ error: 'invalid credentials', code: 'unauthenticated' });
    expect(r.cookies).toHaveLength(0);
  });

  it('answers 400 for malformed JSON, a wrong type or a non-JSON content type', async () => {
    const bad = await call('POST', '/api/auth/login', { raw: '{"token":', headers: { 'Content-Type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('invalid_request');
    const wrongType = await call('POST', '/api/auth/login', { body: { token: 42 } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.error).toMatch(/token/);
    const form = await call('POST', '/api/auth/login', { raw: 'token=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(400);
  });

  it('answers 413 for a JSON body over 1 MiB', async () => {
    const r = await call('POST', '/api/auth/login', { body: { token: 'x'.repeat(1024 * 1024 + 10) } });
    expect(r.status).toBe(413);
    expect(r.json.code).toBe('body_too_large');
  });

  it('rate-limits by client address: the 11th attempt in 5 minutes is 429 with Retry-After', async () => {
    const ip = randomIp();
    for (let i = 0; i < 10; i++) {
      const r = await call('POST', '/api/auth/login', { body: { token: `wrong-${i}` }, ip });
      expect(r.status).toBe(401);
    }
    const blocked = await call('POST', '/api/auth/login', { body: { token: TEST_ADMIN_TOKEN }, ip });
    expect(blocked.status).toBe(429);
    expect(blocked.json.code).toBe('rate_limited');
    const retry = Number(blocked.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(300);
    // Another address is not affected.
    expect((await call('POST', '/api/auth/login', { body: { token: TEST_ADMIN_TOKEN } })).status).toBe(200);
  });
});

describe('GET /api/auth/me', () => {
  it('answers 401 without credentials', async () => {
    const r = await call('GET', '/api/auth/me');
    expect(r.status).toBe(401);
    expect(r.json.code).toBe('unauthenticated');
  });

  it('accepts the admin cookie, the session token as Bearer and the Admin Token itself as Bearer', async () => {
    const s = await adminSession();
    for (const opts of [{ cookie: s.cookie }, { token: s.token }, { token: TEST_ADMIN_TOKEN }]) {
      const r = await call('GET', '/api/auth/me', opts);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ role: 'admin', user: null });
    }
  });

  it('refuses an unknown Bearer token, a malformed Authorization header and a forged cookie', async () => {
    expect((await call('GET', '/api/auth/me', { token: 'x'.repeat(43) })).status).toBe(401);
    expect((await call('GET', '/api/auth/me', { headers: { Authorization: 'Basic abc' } })).status).toBe(401);
    expect((await call('GET', '/api/auth/me', { headers: { Authorization: 'Bearer' } })).status).toBe(401);
    expect((await call('GET', '/api/auth/me', { cookie: 'htmls_admin_session=forged' })).status).toBe(401);
    // A Bearer header that does not resolve is final: a valid cookie beside it does not rescue it.
    const s = await adminSession();
    expect((await call('GET', '/api/auth/me', { token: 'bogus', cookie: s.cookie })).status).toBe(401);
  });
});

describe('GET /api/auth/check', () => {
  it('never answers 401 and reports the session', async () => {
    const anon = await call('GET', '/api/auth/check');
    expect(anon.status).toBe(200);
    expect(anon.json).toEqual({ authenticated: false, role: null });
    const s = await adminSession();
    const me = await call('GET', '/api/auth/check', { cookie: s.cookie });
    expect(me.json).toEqual({ authenticated: true, role: 'admin' });
  });

  it('allows 30 checks a minute per address, then 429', async () => {
    const ip = randomIp();
    for (let i = 0; i < 30; i++) expect((await call('GET', '/api/auth/check', { ip })).status).toBe(200);
    const r = await call('GET', '/api/auth/check', { ip });
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });
});

describe('POST /api/auth/logout', () => {
  it('revokes the session server-side and clears both cookies', async () => {
    const s = await adminSession();
    const r = await call('POST', '/api/auth/logout', { cookie: s.cookie });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ok: true });
    const cleared = r.cookies.map((c) => c.split(';')[0]);
    expect(cleared).toEqual(expect.arrayContaining(['htmls_admin_session=', 'htmls_user_session=']));
    expect(r.cookies.every((c) => c.includes('Max-Age=0'))).toBe(true);
    expect((await call('GET', '/api/auth/me', { cookie: s.cookie })).status).toBe(401);
    expect((await call('GET', '/api/auth/me', { token: s.token })).status).toBe(401);
  });

  it('answers 200 without any session', async () => {
    expect((await call('POST', '/api/auth/logout')).status).toBe(200);
  });
});

describe('PATCH /api/auth/token — guards', () => {
  it('answers 401 without credentials', async () => {
    expect((await call('PATCH', '/api/auth/token', { body: { token: 'whatever-long' } })).status).toBe(401);
  });

  it('refuses a token shorter than 16 characters with 400 token_too_short', async () => {
    const s = await adminSession();
    const r = await call('PATCH', '/api/auth/token', { token: s.token, body: { token: 'fifteen-chars-x' } });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('token_too_short');
  });

  it('refuses a cookie-authenticated change from another origin with 403', async () => {
    const s = await adminSession();
    const r = await call('PATCH', '/api/auth/token', {
      cookie: s.cookie,
      headers: { Origin: 'https://evil.example' },
      body: { token: 'attacker-chosen-token' },
    });
    expect(r.status).toBe(403);
    expect(r.json.code).toBe('forbidden');
  });

  it('refuses a cookie-authenticated change with neither Origin nor Sec-Fetch-Site', async () => {
    const s = await adminSession();
    const res = await fetch(`${baseUrl()}/api/auth/token`, {
      method: 'PATCH',
      // The console's own header, so the session counts: the missing origin alone must refuse it.
      headers: { Cookie: s.cookie, 'X-Htmls-Account': 'admin', 'Content-Type': 'application/json', 'X-Forwarded-For': randomIp() },
      body: JSON.stringify({ token: 'attacker-chosen-token' }),
    });
    expect(res.status).toBe(403);
  });
});
