import { describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { call, randomIp } from './support/http';
import { TEST_ADMIN_TOKEN } from './support/server';
import { createMember, uniqueName } from './support/members';
import { rawRequest } from './support/raw-http';
import { uploadShare } from './support/shares';

useFileServer();

/**
 * The bad-input corpus: every JSON route gets malformed, mistyped, oversized, deeply nested
 * and prototype-polluting bodies. Each must be a 4xx JSON error — never a 5xx — and change
 * nothing.
 */
const ZERO_UUID = '00000000-0000-4000-8000-000000000000';

const routes: [string, string][] = [
  ['POST', '/api/auth/login'],
  ['POST', '/api/auth/register'],
  ['PATCH', '/api/auth/profile'],
  ['PATCH', '/api/auth/token'],
  ['POST', '/api/users'],
  ['PATCH', `/api/users/${ZERO_UUID}`],
  ['PATCH', '/api/settings'],
  ['PATCH', '/api/status'],
  ['PATCH', '/api/projects/no-such-project'],
  ['PATCH', '/api/shares/nosuchshare'],
  ['POST', '/api/shares/upload/init'],
  ['POST', '/api/shares/upload/part-url'],
  ['POST', '/api/shares/upload/complete'],
  ['POST', '/api/shares/upload/abort'],
  ['POST', '/api/shares/upload/status'],
];

let nested = '1';
for (let i = 0; i < 5000; i++) nested = `[${nested}]`;

const bodies: [string, string, string?][] = [
  ['malformed JSON', '{"a":'],
  ['not an object', '"just a string"'],
  ['an array', '[1,2,3]'],
  ['null', 'null'],
  ['wrong types everywhere', JSON.stringify({ username: 1, password: [], token: {}, files: 'x', groupId: 5, id: true, status: 9, default_quota_bytes: 'big', note: {}, expires_at: 3 })],
  ['deep nesting', `{"files":${nested},"username":${nested}}`],
  ['prototype pollution', '{"__proto__":{"role":"admin","isAdmin":true},"constructor":{"prototype":{"role":"admin"}},"username":"x"}'],
  ['empty body', ''],
  ['a JSON body sent as text/plain', '{"username":"abc","password":"long enough"}', 'text/plain'],
];

describe('bad input on every JSON route', () => {
  for (const [method, path] of routes) {
    it(`${method} ${path}`, async () => {
      const before = (await call('GET', '/api/users?limit=200', { token: TEST_ADMIN_TOKEN })).json.users.length;
      for (const [label, raw, type] of bodies) {
        const r = await call(method, path, { token: TEST_ADMIN_TOKEN, raw, headers: { 'Content-Type': type ?? 'application/json' } });
        expect(r.status, `${label}: ${r.text}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${label}: ${r.text}`).toBeLessThan(500);
        expect(r.json, label).toMatchObject({ error: expect.any(String), code: expect.any(String) });
      }
      const huge = await call(method, path, { token: TEST_ADMIN_TOKEN, raw: `{"note":"${'x'.repeat(9 * 1024 * 1024)}"}`, headers: { 'Content-Type': 'application/json' } });
      // The profile route (members only) does not take the raw Admin Token as Bearer: 401 before it reads any body.
      expect(huge.status).toBe(path === '/api/auth/profile' ? 401 : 413);
      expect((await call('GET', '/api/users?limit=200', { token: TEST_ADMIN_TOKEN })).json.users.length).toBe(before);
    });
  }
});

describe('prototype-polluting bodies', () => {
  const polluted = (fields: Record<string, unknown>) =>
    `{"__proto__":{"role":"admin","isAdmin":true},"constructor":{"prototype":{"role":"admin"}},${JSON.stringify(fields).slice(1)}`;

  it('POST /api/users — a user created from a polluted body is a member, and so is the next one', async () => {
    const username = uniqueName('proto');
    const c = await call('POST', '/api/users', {
      token: TEST_ADMIN_TOKEN,
      raw: polluted({ username, password: 'long enough', quota_bytes: 1024 ** 2 }),
      headers: { 'Content-Type': 'application/json' },
    });
    // The extra keys are ignored: the user is created, as a member.
    expect(c.status, c.text).toBe(201);
    expect(c.json.user.role).toBe('member');
    const l = await call('POST', '/api/auth/login', { body: { username, password: 'long enough' } });
    expect(l.json.role).toBe('member');
    expect((await call('GET', '/api/auth/me', { token: l.json.token })).json.role).toBe('member');
    const fresh = await createMember();
    expect((await call('GET', '/api/auth/me', { token: fresh.token })).json.role).toBe('member');
    expect((await call('GET', '/api/users', { token: fresh.token })).status).toBe(403);
  });

  it('a member who sends polluted bodies to every JSON route is still a member, with no admin route open', async () => {
    const m = await createMember();
    for (const [method, path] of routes) {
      const r = await call(method, path, { token: m.token, raw: polluted({ note: 'x' }), headers: { 'Content-Type': 'application/json' } });
      expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(500);
    }
    const me = await call('GET', '/api/auth/me', { token: m.token });
    expect([me.status, me.json.role]).toEqual([200, 'member']);
    expect((await call('GET', '/api/users', { token: m.token })).status).toBe(403);
    expect((await call('GET', '/api/auth/me', { token: (await createMember()).token })).json.role).toBe('member');
  });
});

describe('Bearer edge cases', () => {
  it.each([
    ['Bearer'],
    ['Bearer '],
    ['Bearer  '],
    ['Basic dXNlcjpwYXNz'],
    ['Bearer a b'],
    [`Bearer ${'x'.repeat(5000)}`],
    ['Bearer \u00e9\u00e9\u00e9'],
    ['bearer nope'],
    ['Token abc'],
    ['Bearer \u{1F511}'],
  ])('%s is 401', async (header) => {
    // On a raw socket: fetch refuses some of these headers (non-Latin-1) and would never send them.
    const r = await rawRequest(baseUrl(), 'GET', '/api/auth/me', [['Authorization', header], ['X-Forwarded-For', randomIp()]]);
    expect(r.status).toBe(401);
    expect(JSON.parse(r.body).code).toBe('unauthenticated');
  });

  it('a valid token with a different scheme case still works ("bearer")', async () => {
    const r = await call('GET', '/api/auth/me', { headers: { Authorization: `bearer ${TEST_ADMIN_TOKEN}` } });
    expect(r.status).toBe(200);
  });
});

describe('spoofed X-Forwarded-For', () => {
  it('uses the hop the server trusts (TRUST_PROXY=1): a client cannot dodge the login limit', async () => {
    const real = randomIp();
    for (let i = 0; i < 10; i++) {
      const r = await call('POST', '/api/auth/login', { headers: { 'X-Forwarded-For': `203.0.113.${i}, ${real}` }, body: { token: 'wrong' } });
      expect(r.status).toBe(401);
    }
    const r = await call('POST', '/api/auth/login', { headers: { 'X-Forwarded-For': `198.51.100.7, ${real}` }, body: { token: 'wrong' } });
    expect(r.status).toBe(429);
  });
});

describe('bad paths and ids on the public routes', () => {
  it('answers 4xx, never 5xx, for hostile share paths, ids and ranges', async () => {
    const m = await createMember();
    const { share } = await uploadShare(m.token, { 'a.txt': Buffer.from('0123456789') });
    const base = baseUrl();
    const paths = [
      `/f/${share.id}/%00`,
      `/f/${share.id}/..%2f..%2fetc%2fpasswd`,
      `/f/${share.id}/%E0%A4%A`,
      `/f/${share.id}/${'a/'.repeat(600)}x`,
      `/f/${share.id}/%e2%80%ae.txt`,
      `/f/${'x'.repeat(300)}/a.txt`,
      '/f/%00/a.txt',
      '/p/%00/x',
      `/p/${'x'.repeat(300)}/`,
      '/p/..%2f..%2f/x',
    ];
    for (const p of paths) {
      const r = await fetch(base + p);
      expect(r.status, p).toBeGreaterThanOrEqual(400);
      expect(r.status, p).toBeLessThan(500);
    }
    const item = `${base}/f/${share.id}/a.txt`;
    for (const range of ['bytes=', 'bytes=-', 'bytes=--1', 'bytes=0-1,2-3', 'bytes=99999999999999999999-', 'bytes=-0', 'bytes=5-2', 'bytes=\u00e9-']) {
      const r = await rawRequest(base, 'GET', `/f/${share.id}/a.txt`, [['Range', range]]);
      expect([200, 206, 416], range).toContain(r.status);
    }
    // A NUL in a header value (fetch will not send one): Node's HTTP parser answers 400 before the app.
    expect((await rawRequest(base, 'GET', `/f/${share.id}/a.txt`, [['Range', 'bytes=\u0000']])).status).toBe(400);
    for (const cookie of ['', `htmls_share_unlock_${share.id}=`, `htmls_share_unlock_${share.id}=abc.def`, `htmls_share_unlock_${share.id}=1.${'A'.repeat(43)}`]) {
      const r = await fetch(item, { headers: { Cookie: cookie } });
      expect(r.status).toBe(200); // no password set: cookies are irrelevant, and never an error
    }
  });

  it('refuses bad chunk queries with 400/404, never 5xx', async () => {
    const m = await createMember();
    for (const q of ['', 'groupId=x', 'groupId=x&uploadId=y&storageKey=z&partNumber=abc', 'groupId=x&uploadId=y&storageKey=z&partNumber=0', 'groupId=%00&uploadId=y&storageKey=z&partNumber=1']) {
      const r = await call('PUT', `/api/shares/upload/chunk?${q}`, { token: m.token, raw: new Uint8Array(1) });
      expect(r.status, q).toBeGreaterThanOrEqual(400);
      expect(r.status, q).toBeLessThan(500);
    }
  });
});
