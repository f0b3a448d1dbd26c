import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, cookieFrom, randomIp } from './support/http';
import { migratedServiceEnv } from './support/file-server';
import { startServer, TEST_ADMIN_TOKEN, type RunningServer } from './support/server';
import { requires } from './support/requires';
import { putPart, uploadShare } from './support/shares';
import { WebhookReceiver } from './support/webhook-receiver';

// Two instances on one PostgreSQL database and one store. PGlite belongs to one process, so
// this runs only against PostgreSQL (.ci/run's second pass).
let a: RunningServer;
let b: RunningServer;

requires('postgres').describe('two instances, one database, one store', () => {
  beforeAll(async () => {
    const env = {
      ...(await migratedServiceEnv()),
      UPLOAD_MODE: 'proxy',
      JANITOR_INTERVAL_SECONDS: '1',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    };
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it("one download's ranges served by both instances at once are one activity row and one share.downloaded", async () => {
    const username = `dl${randomBytes(4).toString('hex')}`;
    await call('POST', '/api/users', { base: a.url, token: TEST_ADMIN_TOKEN, body: { username, password: 'long enough', quota_bytes: 1024 ** 3 } });
    const token = (await call('POST', '/api/auth/login', { base: a.url, body: { username, password: 'long enough' } })).json.token;
    const receiver = await new WebhookReceiver().start();
    try {
      expect((await call('POST', '/api/webhooks', { base: a.url, token, body: { url: receiver.url, events: ['share.downloaded'] } })).status).toBe(201);
      const data = randomBytes(800_000);
      const { share } = await uploadShare(token, { 'd.bin': data }, { base: a.url, max_downloads: 1 });
      const url = (s: RunningServer) => `${s.url}/f/${share.id}/d.bin`;
      const guest = { 'X-Forwarded-For': randomIp(), 'User-Agent': 'two-instance-guest' };
      // The ticket, then eight ranges at once, alternating between the instances.
      const first = await fetch(url(a), { headers: { ...guest, Range: 'bytes=0-99999' } });
      const head = Buffer.from(await first.arrayBuffer());
      const ticket = cookieFrom(first.headers.getSetCookie(), 'htmls_dl');
      const parts = await Promise.all(
        Array.from({ length: 7 }, (_, i) =>
          fetch(url(i % 2 ? a : b), { headers: { ...guest, Cookie: ticket, Range: `bytes=${(i + 1) * 100_000}-${(i + 2) * 100_000 - 1}` } }).then(async (r) => Buffer.from(await r.arrayBuffer())),
        ),
      );
      expect(Buffer.concat([head, ...parts]).equals(data)).toBe(true);
      const activity = async () => (await call('GET', `/api/shares/${share.id}/activity`, { base: b.url, token })).json.activity.downloads;
      await expect.poll(async () => (await activity()).map((d: { bytes: number; completed: boolean }) => [d.bytes, d.completed]), { timeout: 15_000 }).toEqual([[data.length, true]]);
      const event = await receiver.waitFor((r) => r.json.type === 'share.downloaded' && r.json.data.share_id === share.id);
      expect(event.json.data.bytes).toBe(data.length);
      expect(receiver.received.filter((r) => r.json.data?.share_id === share.id)).toHaveLength(1);
    } finally {
      await receiver.stop();
    }
  });

  // Parts held between requests live in the store: instances share them on S3 (README: scale out
  // on PostgreSQL + S3); a filesystem store is one machine's, each test server's own directory.
  requires('s3').it('completes a share upload whose parts alternate between the instances', async () => {
    const username = `two${randomBytes(4).toString('hex')}`;
    await call('POST', '/api/users', { base: a.url, token: TEST_ADMIN_TOKEN, body: { username, password: 'long enough', quota_bytes: 1024 ** 3 } });
    const login = await call('POST', '/api/auth/login', { base: b.url, body: { username, password: 'long enough' } });
    const token = login.json.token;
    const partSize = 50_331_648;
    const data = randomBytes(partSize + 1000);
    const init = await call('POST', '/api/shares/upload/init', { base: a.url, token, body: { files: [{ clientPath: 'big.bin', size: data.length }] } });
    expect(init.status).toBe(201);
    const f = init.json.files[0];
    const ref = (n: number) => ({ groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: n });
    const p1 = await putPart(token, ref(1), data.subarray(0, partSize), 'proxy', b.url);
    const p2 = await putPart(token, ref(2), data.subarray(partSize), 'proxy', a.url);
    expect([p1.status, p2.status]).toEqual([200, 200]);
    const done = await call('POST', '/api/shares/upload/complete', {
      base: b.url,
      token,
      body: { groupId: init.json.groupId, files: [{ uploadId: f.uploadId, storageKey: f.storageKey, parts: [{ partNumber: 1, etag: p1.etag }, { partNumber: 2, etag: p2.etag }] }] },
    });
    expect(done.status).toBe(200);
    const got = await fetch(`${a.url}${done.json.share.items[0].url}`);
    expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true);
    expect((await call('GET', '/api/auth/me', { base: a.url, token })).json.user.used_bytes).toBe(data.length);

    // Unlock on one instance, download on the other.
    await call('PATCH', `/api/shares/${done.json.share.id}`, { base: a.url, token, body: { password: 'two-instance-pw' } });
    const unlock = await call('POST', `/f/${done.json.share.id}/unlock`, { base: a.url, body: { password: 'two-instance-pw' } });
    expect(unlock.status).toBe(200);
    const cookie = cookieFrom(unlock.cookies, `htmls_share_unlock_${done.json.share.id}`);
    const r = await fetch(`${b.url}${done.json.share.items[0].url}`, { headers: { Cookie: cookie, Range: 'bytes=0-9' } });
    expect(r.status).toBe(206);
    expect(Buffer.from(await r.arrayBuffer()).equals(data.subarray(0, 10))).toBe(true);
  });

  it('a logout on one instance stops the session\'s uploads on the other (its cached session drops)', async () => {
    const username = `out${randomBytes(4).toString('hex')}`;
    await call('POST', '/api/users', { base: a.url, token: TEST_ADMIN_TOKEN, body: { username, password: 'long enough', quota_bytes: 1024 ** 3 } });
    const token = (await call('POST', '/api/auth/login', { base: a.url, body: { username, password: 'long enough' } })).json.token;
    const data = randomBytes(100);
    const init = await call('POST', '/api/shares/upload/init', { base: a.url, token, body: { files: [{ clientPath: 'a.bin', size: 100 }] } });
    const f = init.json.files[0];
    const ref = { groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 };
    // b resolves the session for its chunk route from memory from here on.
    expect((await putPart(token, ref, data, 'proxy', b.url)).status).toBe(200);
    expect((await putPart(token, ref, data, 'proxy', b.url)).status).toBe(200);
    expect((await call('POST', '/api/auth/logout', { base: a.url, token })).status).toBe(200);
    await expect.poll(async () => (await putPart(token, ref, data, 'proxy', b.url)).status, { timeout: 20_000, interval: 50 }).toBe(401);
  });

  it('counts login attempts split across both instances: the 11th is 429', async () => {
    const ip = randomIp();
    for (let i = 0; i < 10; i++) {
      const r = await call('POST', '/api/auth/login', { base: i % 2 ? a.url : b.url, ip, body: { username: 'nobody', password: 'wrong password' } });
      expect(r.status).toBe(401);
    }
    const r = await call('POST', '/api/auth/login', { base: a.url, ip, body: { token: TEST_ADMIN_TOKEN } });
    expect(r.status).toBe(429);
  });

  it('runs the janitor on one instance per interval, not on both', async () => {
    // Each instance counts its own runs on /api/health.
    const runs = async () => {
      const [ha, hb] = await Promise.all([a, b].map((s) => call('GET', '/api/health', { base: s.url })));
      return (ha.json.janitor.runs as number) + (hb.json.janitor.runs as number);
    };
    const before = await runs();
    const start = Date.now();
    await expect.poll(async () => (await runs()) - before, { timeout: 30_000, interval: 250 }).toBeGreaterThanOrEqual(6);
    const ran = (await runs()) - before;
    const seconds = (Date.now() - start) / 1000;
    // Both tick every second; the shared 1 s lease lets one run per second in all. Without it,
    // six runs take three seconds and this bound fails.
    expect(ran).toBeLessThanOrEqual(Math.ceil(seconds) + 2);
  });

  it('a rollback or a status change on one instance shows on the other, with no query per request', async () => {
    const form = (html: string, fields: Record<string, string>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.append(k, v);
      f.append('f', new Blob([html]), 'index.html');
      return f;
    };
    const slug = `two-${randomBytes(4).toString('hex')}`;
    const v1 = await call('POST', '/api/upload', { base: a.url, token: TEST_ADMIN_TOKEN, raw: form('<p>one</p>', { slug }) });
    await call('POST', '/api/upload', { base: a.url, token: TEST_ADMIN_TOKEN, raw: form('<p>two</p>', { slug, append: 'true' }) });
    const page = async () => (await call('GET', `/p/${slug}/`, { base: b.hostedUrl! })).text;
    await expect.poll(page, { timeout: 5000 }).toContain('two');
    // B serves from its cache now; A rolls back. B must follow (its poll reads the epoch 4 times a
    // second; the deadline is only for an invalidation that never comes).
    const rolled = await call('POST', `/api/projects/${slug}/deploys/${v1.json.project.deploy_id}/activate`, { base: a.url, token: TEST_ADMIN_TOKEN });
    expect(rolled.status).toBe(200);
    await expect.poll(page, { timeout: 20_000, interval: 50 }).toContain('one');
    const id = rolled.json.project.files[0].id;
    await call('PATCH', '/api/status', { base: a.url, token: TEST_ADMIN_TOKEN, body: { id, status: 'offline' } });
    await expect.poll(async () => (await call('GET', `/p/${slug}/`, { base: b.hostedUrl! })).status, { timeout: 20_000, interval: 50 }).toBe(404);
  });
});
