import { describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { adminSession, call, randomIp } from './support/http';
import { TEST_ADMIN_TOKEN } from './support/server';
import { createMember, registerMember, uniqueName } from './support/members';

useFileServer();


describe('POST /api/auth/register', () => {
  it('creates a member with the default quota, signs in with a cookie and a Bearer token', async () => {
    const username = uniqueName('New.');
    const r = await call('POST', '/api/auth/register', {
      body: { username, password: 'correct horse', display_name: 'Ada', email: 'ada@example.com', phone: '+44 20 1234' },
    });
    expect(r.status).toBe(201);
    expect(r.json.user).toMatchObject({
      username: username.toLowerCase(),
      display_name: 'Ada',
      email: 'ada@example.com',
      // Unconfirmed until its link is opened (tests/security-mail.test.ts).
      email_verified: false,
      phone: '+44 20 1234',
      role: 'member',
      status: 'active',
      used_bytes: 0,
    });
    const settings = await call('GET', '/api/settings', { token: TEST_ADMIN_TOKEN });
    expect(r.json.user.quota_bytes).toBe(settings.json.default_quota_bytes);
    expect(r.json.user).not.toHaveProperty('password');
    expect(r.json.user).not.toHaveProperty('password_hash');
    expect(r.json.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(r.json.expires_at) - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
    const set = r.cookies.find((c) => c.startsWith('htmls_user_session='))!;
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/Max-Age=604800/);
    const me = await call('GET', '/api/auth/me', { token: r.json.token });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ role: 'member', user: { id: r.json.user.id } });
  });

  it('answers 409 username_taken, case-insensitively', async () => {
    const m = await registerMember();
    const r = await call('POST', '/api/auth/register', { body: { username: m.username.toUpperCase(), password: 'another-pw' } });
    expect(r.status).toBe(409);
    expect(r.json.code).toBe('username_taken');
  });

  it.each([
    [{ username: 'ab', password: 'long enough' }, 'username'],
    [{ username: 'x'.repeat(33), password: 'long enough' }, 'username'],
    [{ username: 'bad name', password: 'long enough' }, 'username'],
    [{ username: 'ok-name', password: 'short' }, 'password'],
    [{ username: 'ok-name', password: 'x'.repeat(257) }, 'password'],
    [{ username: 'ok-name', password: 12345678 }, 'password'],
    [{ username: 'ok-name', password: 'long enough', email: 'not-an-email' }, 'email'],
  ])('answers 400 for %j', async (body, field) => {
    const r = await call('POST', '/api/auth/register', { body });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('invalid_request');
    expect(r.json.error).toContain(field);
  });

  it('is rate-limited per address (5 an hour) with Retry-After', async () => {
    const ip = randomIp();
    for (let i = 0; i < 5; i++) {
      const r = await call('POST', '/api/auth/register', { ip, body: { username: uniqueName(), password: 'long enough' } });
      expect(r.status).toBe(201);
    }
    const r = await call('POST', '/api/auth/register', { ip, body: { username: uniqueName(), password: 'long enough' } });
    expect(r.status).toBe(429);
    expect(r.json.code).toBe('rate_limited');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('POST /api/auth/login — members', () => {
  it('signs a member in with username (any case) and password', async () => {
    const m = await registerMember();
    const r = await call('POST', '/api/auth/login', { body: { username: m.username.toUpperCase(), password: m.password } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ role: 'member', user: { id: m.id } });
    expect(r.cookies.some((c) => c.startsWith('htmls_user_session='))).toBe(true);
  });

  it('answers the same 401 for an unknown user and a wrong password', async () => {
    const m = await registerMember();
    const wrong = await call('POST', '/api/auth/login', { body: { username: m.username, password: 'wrong password' } });
    const unknown = await call('POST', '/api/auth/login', { body: { username: uniqueName(), password: 'wrong password' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json).toEqual(unknown.json);
    expect(wrong.json).toEqual({ error: 'invalid credentials', code: 'unauthenticated' });
  });

  it('shares the 10-per-5-minutes login limit with the Admin Token login', async () => {
    const ip = randomIp();
    for (let i = 0; i < 5; i++) await call('POST', '/api/auth/login', { ip, body: { token: 'wrong-token' } });
    for (let i = 0; i < 5; i++) await call('POST', '/api/auth/login', { ip, body: { username: 'nobody', password: 'wrong password' } });
    const r = await call('POST', '/api/auth/login', { ip, body: { username: 'nobody', password: 'wrong password' } });
    expect(r.status).toBe(429);
  });

  it('logout revokes the member session', async () => {
    const m = await registerMember();
    expect((await call('POST', '/api/auth/logout', { token: m.token })).status).toBe(200);
    expect((await call('GET', '/api/auth/me', { token: m.token })).status).toBe(401);
    expect((await call('GET', '/api/auth/me', { cookie: m.cookie })).status).toBe(401);
  });
});

describe('PATCH /api/auth/profile', () => {
  it('changes the display name, email and phone, not the username', async () => {
    const m = await registerMember();
    const r = await call('PATCH', '/api/auth/profile', {
      cookie: m.cookie,
      body: { display_name: 'Grace', email: 'g@example.org', phone: '555 0100', username: 'hijack', current_password: m.password },
    });
    expect(r.status).toBe(200);
    expect(r.json.user).toMatchObject({ display_name: 'Grace', email: 'g@example.org', phone: '555 0100', username: m.username });
    expect((await call('GET', '/api/auth/me', { token: m.token })).json.user.display_name).toBe('Grace');
  });

  it('sets the language (issue 40): one of the 14 tags or null for the browser’s; anything else is 400 and changes nothing', async () => {
    const m = await registerMember();
    expect((await call('GET', '/api/auth/me', { token: m.token })).json.user.locale).toBeNull();
    const set = await call('PATCH', '/api/auth/profile', { cookie: m.cookie, body: { locale: 'pt-BR' } });
    expect(set.status).toBe(200);
    expect(set.json.user.locale).toBe('pt-BR');
    for (const locale of ['pt', 'PT-br', 'xx', '', 7]) {
      const r = await call('PATCH', '/api/auth/profile', { token: m.token, body: { locale } });
      expect([locale, r.status, r.json.code]).toEqual([locale, 400, 'invalid_request']);
    }
    // Other fields leave it as it is; null goes back to the browser's.
    expect((await call('PATCH', '/api/auth/profile', { token: m.token, body: { display_name: 'Ana' } })).json.user.locale).toBe('pt-BR');
    expect((await call('PATCH', '/api/auth/profile', { token: m.token, body: { locale: null } })).json.user.locale).toBeNull();
  });

  it('answers 400 for a wrong type, 401 without a session or with the raw Admin Token, 403 for an admin session, 403 cross-site', async () => {
    const m = await registerMember();
    expect((await call('PATCH', '/api/auth/profile', { token: m.token, body: { display_name: 5 } })).status).toBe(400);
    expect((await call('PATCH', '/api/auth/profile', { body: { display_name: 'x' } })).status).toBe(401);
    // The raw Admin Token is taken as Bearer only on admin and session routes.
    expect((await call('PATCH', '/api/auth/profile', { token: TEST_ADMIN_TOKEN, body: { display_name: 'x' } })).status).toBe(401);
    const adminR = await call('PATCH', '/api/auth/profile', { token: (await adminSession()).token, body: { display_name: 'x' } });
    expect(adminR.status).toBe(403);
    const cross = await call('PATCH', '/api/auth/profile', {
      cookie: m.cookie,
      headers: { Origin: 'https://evil.example' },
      body: { display_name: 'x' },
    });
    expect(cross.status).toBe(403);
  });
});

describe('administrator user management', () => {
  it('lists users with usage; creates one with a role and quota; 409 for a taken name', async () => {
    const username = uniqueName();
    const c = await call('POST', '/api/users', {
      token: TEST_ADMIN_TOKEN,
      body: { username, password: 'long enough', role: 'admin', quota_bytes: 1234567, display_name: 'Op' },
    });
    expect(c.status).toBe(201);
    expect(c.json.user).toMatchObject({ username, role: 'admin', quota_bytes: 1234567, used_bytes: 0 });
    const list = await call('GET', '/api/users', { token: TEST_ADMIN_TOKEN });
    expect(list.status).toBe(200);
    const row = list.json.users.find((u: { id: string }) => u.id === c.json.user.id);
    expect(row).toMatchObject({ username, quota_bytes: 1234567, used_bytes: 0 });
    for (const u of list.json.users) expect(Object.keys(u).sort()).toEqual(
      ['created_at', 'display_name', 'email', 'email_verified', 'id', 'locale', 'notify', 'phone', 'quota_bytes', 'role', 'status', 'two_factor', 'used_bytes', 'username'],
    );
    const again = await call('POST', '/api/users', { token: TEST_ADMIN_TOKEN, body: { username, password: 'long enough' } });
    expect(again.status).toBe(409);
  });

  it('edits quota, role and password; 404 for an unknown id; 400 for a bad value', async () => {
    const m = await createMember({ quota: 1000 });
    const r = await call('PATCH', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN, body: { quota_bytes: 5 * 1024 ** 3, display_name: 'Renamed' } });
    expect(r.status).toBe(200);
    expect(r.json.user).toMatchObject({ quota_bytes: 5 * 1024 ** 3, display_name: 'Renamed' });
    expect((await call('GET', '/api/auth/me', { token: m.token })).json.user.quota_bytes).toBe(5 * 1024 ** 3);
    expect((await call('PATCH', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN, body: { quota_bytes: -1 } })).status).toBe(400);
    expect((await call('PATCH', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN, body: { status: 'banned' } })).status).toBe(400);
    expect((await call('PATCH', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN, body: { quota_bytes: '5' } })).status).toBe(400);
    const unknown = await call('PATCH', '/api/users/00000000-0000-4000-8000-000000000000', { token: TEST_ADMIN_TOKEN, body: { quota_bytes: 1 } });
    expect(unknown.status).toBe(404);
    expect((await call('PATCH', '/api/users/not-a-uuid', { token: TEST_ADMIN_TOKEN, body: { quota_bytes: 1 } })).status).toBe(404);

    const pw = await call('PATCH', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN, body: { password: 'a brand new password' } });
    expect(pw.status).toBe(200);
    expect((await call('GET', '/api/auth/me', { token: m.token })).status).toBe(401); // old sessions end
    const login = await call('POST', '/api/auth/login', { body: { username: m.username, password: 'a brand new password' } });
    expect(login.status).toBe(200);
  });

  it('a disabled user cannot log in (401 as a wrong password: issue 39) and its sessions stop working', async () => {
    const m = await createMember();
    expect((await call('GET', '/api/auth/me', { token: m.token })).status).toBe(200);
    expect((await call('PATCH', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN, body: { status: 'disabled' } })).status).toBe(200);
    expect((await call('GET', '/api/auth/me', { token: m.token })).status).toBe(401);
    expect((await call('GET', '/api/auth/me', { cookie: m.cookie })).status).toBe(401);
    const login = await call('POST', '/api/auth/login', { body: { username: m.username, password: m.password } });
    // The right password answers as a wrong one: a disabled account's password cannot be probed.
    expect([login.status, login.json.code]).toEqual([401, 'unauthenticated']);
    const wrong = await call('POST', '/api/auth/login', { body: { username: m.username, password: 'not the password' } });
    expect(wrong.status).toBe(401);
    await call('PATCH', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN, body: { status: 'active' } });
    expect((await call('POST', '/api/auth/login', { body: { username: m.username, password: m.password } })).status).toBe(200);
  });

  it('a user with role admin has the administrator rights, checked at each request', async () => {
    const m = await createMember();
    expect((await call('GET', '/api/users', { token: m.token })).status).toBe(403);
    await call('PATCH', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN, body: { role: 'admin' } });
    expect((await call('GET', '/api/users', { token: m.token })).status).toBe(200);
    expect((await call('GET', '/api/files', { token: m.token })).status).toBe(200);
    expect((await call('GET', '/api/auth/me', { token: m.token })).json.role).toBe('admin');
    await call('PATCH', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN, body: { role: 'member' } });
    expect((await call('GET', '/api/users', { token: m.token })).status).toBe(403);
  });

  it('members cannot read or change users, settings or hosting', async () => {
    const m = await registerMember();
    const other = await registerMember();
    const tries: [string, string, unknown?][] = [
      ['GET', '/api/users'],
      ['POST', '/api/users', { username: uniqueName(), password: 'long enough' }],
      ['PATCH', `/api/users/${other.id}`, { quota_bytes: 1 }],
      ['PATCH', `/api/users/${m.id}`, { quota_bytes: 10 ** 12 }],
      ['DELETE', `/api/users/${other.id}`],
      ['GET', '/api/settings'],
      ['PATCH', '/api/settings', { default_quota_bytes: 1 }],
      ['GET', '/api/files'],
    ];
    for (const [method, path, body] of tries) {
      const r = await call(method, path, { token: m.token, body });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect((await call(method, path, { body })).status, `${method} ${path} anonymous`).toBe(401);
    }
    expect((await call('GET', '/api/auth/me', { token: other.token })).status).toBe(200);
  });

  it('DELETE /api/users/:id removes the user and its sessions; 404 afterwards', async () => {
    const m = await createMember();
    expect((await call('DELETE', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN })).status).toBe(204);
    expect((await call('GET', '/api/auth/me', { token: m.token })).status).toBe(401);
    expect((await call('POST', '/api/auth/login', { body: { username: m.username, password: m.password } })).status).toBe(401);
    expect((await call('DELETE', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN })).status).toBe(404);
  });
});

describe('GET/PATCH /api/settings', () => {
  it('changes the default quota for new registrations only', async () => {
    const before = await call('GET', '/api/settings', { token: TEST_ADMIN_TOKEN });
    expect(before.status).toBe(200);
    const existing = await registerMember();
    const oldQuota = (await call('GET', '/api/auth/me', { token: existing.token })).json.user.quota_bytes;
    try {
      const p = await call('PATCH', '/api/settings', { token: TEST_ADMIN_TOKEN, body: { default_quota_bytes: 7 * 1024 ** 2 } });
      expect(p.status).toBe(200);
      expect(p.json).toEqual({ default_quota_bytes: 7 * 1024 ** 2 });
      const fresh = await registerMember();
      expect((await call('GET', '/api/auth/me', { token: fresh.token })).json.user.quota_bytes).toBe(7 * 1024 ** 2);
      expect((await call('GET', '/api/auth/me', { token: existing.token })).json.user.quota_bytes).toBe(oldQuota);
      expect((await call('PATCH', '/api/settings', { token: TEST_ADMIN_TOKEN, body: { default_quota_bytes: 1.5 } })).status).toBe(400);
      expect((await call('PATCH', '/api/settings', { token: TEST_ADMIN_TOKEN, body: {} })).status).toBe(400);
    } finally {
      await call('PATCH', '/api/settings', { token: TEST_ADMIN_TOKEN, body: before.json });
    }
  });

  it('starts at 50 MB (52,428,800 bytes) on a fresh installation', async () => {
    // Read from the source of truth; another test may be changing it right now, so only when unset.
    const { DEFAULT_QUOTA_BYTES } = await import('@/lib/users/default-quota');
    expect(DEFAULT_QUOTA_BYTES).toBe(52_428_800);
  });
});

describe('DELETE /api/auth/account', () => {
  it('deletes the member and every session; an admin session is refused with 403', async () => {
    const m = await registerMember();
    const second = await call('POST', '/api/auth/login', { body: { username: m.username, password: m.password } });
    expect((await call('DELETE', '/api/auth/account', { token: (await adminSession()).token })).status).toBe(403);
    expect((await call('DELETE', '/api/auth/account', { token: TEST_ADMIN_TOKEN })).status).toBe(401);
    expect((await call('DELETE', '/api/auth/account')).status).toBe(401);
    const r = await call('DELETE', '/api/auth/account', { cookie: m.cookie });
    expect(r.status).toBe(204);
    expect(r.cookies.some((c) => c.startsWith('htmls_user_session=;') || /htmls_user_session=.*Max-Age=0/.test(c))).toBe(true);
    expect((await call('GET', '/api/auth/me', { token: m.token })).status).toBe(401);
    expect((await call('GET', '/api/auth/me', { token: second.json.token })).status).toBe(401);
    expect((await call('POST', '/api/auth/login', { body: { username: m.username, password: m.password } })).status).toBe(401);
    const list = await call('GET', '/api/users', { token: TEST_ADMIN_TOKEN });
    expect(list.json.users.some((u: { id: string }) => u.id === m.id)).toBe(false);
  });
});
