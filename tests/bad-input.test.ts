import { describe, expect, inject, it } from 'vitest';
import { call, randomIp } from './support/http';
import { createMember } from './support/members';
import { uploadShare } from './support/shares';

/**
 * The bad-input corpus: every JSON route gets malformed, mistyped, oversized, deeply nested
 * and prototype-polluting bodies. Each must be a 4xx JSON error — never a 5xx — and change
 * nothing.
 */
const admin = () => inject('adminToken');
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
      const before = (await call('GET', '/api/users', { token: admin() })).json.users.length;
      for (const [label, raw, type] of bodies) {
        const r = await call(method, path, { token: admin(), raw, headers: { 'Content-Type': type ?? 'application/json' } });
        expect(r.status, `${label}: ${r.text}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${label}: ${r.text}`).toBeLessThan(500);
        expect(r.json, label).toMatchObject({ error: expect.any(String), code: expect.any(String) });
      }
      const huge = await call(method, path, { token: admin(), raw: `{"note":"${'x'.repeat(9 * 1024 * 1024)}"}`, headers: { 'Content-Type': 'application/json' } });
      // The profile route refuses the Admin Token (403) before it reads any body.
      expect(huge.status).toBe(path === '/api/auth/profile' ? 403 : 413);
      expect((await call('GET', '/api/users', { token: admin() })).json.users.length).toBe(before);
      expect(({} as Record<string, unknown>).role).toBeUndefined();
    });
  }
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
  ])('%s is 401', async (header) => {
    const r = await fetch(`${inject('baseUrl')}/api/auth/me`, { headers: { Authorization: header, 'X-Forwarded-For': randomIp() } }).catch(() => null);
    if (r === null) return; // a header fetch itself refuses to send (non-ByteString)
    expect(r.status).toBe(401);
    expect((await r.json()).code).toBe('unauthenticated');
  });

  it('a valid token with a different scheme case still works ("bearer")', async () => {
    const r = await call('GET', '/api/auth/me', { headers: { Authorization: `bearer ${admin()}` } });
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
    const base = inject('baseUrl');
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
    for (const range of ['bytes=', 'bytes=-', 'bytes=--1', 'bytes=0-1,2-3', 'bytes=99999999999999999999-', 'bytes=-0', 'bytes=5-2', 'bytes=\u0000']) {
      const r = await fetch(item, { headers: { Range: range } }).catch(() => null);
      if (r === null) continue;
      expect([200, 206, 416], range).toContain(r.status);
      await r.arrayBuffer();
    }
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
