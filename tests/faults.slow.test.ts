import { randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUEST_CACHE_STALE_MS } from '@/lib/epoch-cache';
import { call } from './support/http';
import { migratedServiceEnv } from './support/file-server';
import { startServer, TEST_ADMIN_TOKEN, type RunningServer } from './support/server';
import { requires } from './support/requires';
import { putPart } from './support/shares';
import { openStore } from './support/store';
import { tcpProxy } from './support/tcp-proxy';

const running: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop('SIGKILL')));
});

async function start(env: Record<string, string | undefined>) {
  const s = await startServer(env);
  running.push(s);
  return s;
}

async function member(base: string, quota = 1024 ** 3) {
  const username = `f${randomBytes(5).toString('hex')}`;
  const c = await call('POST', '/api/users', { base, token: TEST_ADMIN_TOKEN, body: { username, password: 'long enough', quota_bytes: quota } });
  const l = await call('POST', '/api/auth/login', { base, body: { username, password: 'long enough' } });
  return { id: c.json.user.id as string, token: l.json.token as string };
}

/** The files a process has open, from /proc (Linux). */
function openFiles(pid: number): string[] {
  const fds = `/proc/${pid}/fd`;
  return readdirSync(fds).flatMap((fd) => {
    try {
      return [readlinkSync(path.join(fds, fd))];
    } catch {
      return []; // closed meanwhile
    }
  });
}

describe('the server killed with SIGKILL mid-upload', () => {
  // One kill and restart serves both cases (two child server boots fewer): the second case's
  // upload, a part of it stored, is made before the first case's kill, and aborted after its
  // restart. Run alone, the second case kills and restarts the server itself.
  let env: Record<string, string | undefined>;
  let server: RunningServer;
  let restarted = false;
  let s3Relay: Awaited<ReturnType<typeof tcpProxy>> | null = null;
  // On S3, part 2's bytes go through a relay in front of the bucket (see partArriving).
  let sentToS3 = Buffer.alloc(0);
  /** The second case's upload: a part stored before the kill. */
  let stored: { token: string; groupId: string };
  beforeAll(async () => {
    env = { ...(await migratedServiceEnv()), UPLOAD_MODE: 'proxy' };
    if (env.STORAGE === 's3') {
      s3Relay = await tcpProxy({ host: new URL(env.S3_ENDPOINT!).hostname, port: Number(new URL(env.S3_ENDPOINT!).port || 80) }, (b) => {
        sentToS3 = Buffer.concat([sentToS3, b]).subarray(-256 * 1024);
      });
      env.S3_ENDPOINT = `http://127.0.0.1:${s3Relay.port}`;
    }
    server = await start(env);
    const m = await member(server.url, 10_000);
    const init = await call('POST', '/api/shares/upload/init', { base: server.url, token: m.token, body: { files: [{ clientPath: 'a.bin', size: 10_000 }] } });
    const f = init.json.files[0];
    const part = await putPart(m.token, { groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 }, randomBytes(10_000), 'proxy', server.url);
    expect(part.status).toBe(200);
    stored = { token: m.token, groupId: init.json.groupId };
  });
  afterAll(async () => {
    await server?.stop();
    await s3Relay?.close();
  });

  it('restarts, resumes the upload from the parts the store kept, and the quota is exact', async () => {
    const dataDir = env.DATA_DIR!;
    const m = await member(server.url);
    const partSize = 50_331_648;
    const data = randomBytes(partSize + 4096);
    const init = await call('POST', '/api/shares/upload/init', { base: server.url, token: m.token, body: { files: [{ clientPath: 'movie.bin', size: data.length }] } });
    expect(init.status).toBe(201);
    const f = init.json.files[0];
    // Whether part 2 is being stored: on S3, its bytes went through the relay in front of the
    // bucket; on the fs store (which batches writes), the server holds this upload's file open.
    const multipartArea = path.join(dataDir, 'store', 'multipart', f.storageKey) + path.sep;
    const partArriving = (sample: Buffer) =>
      s3Relay ? sentToS3.includes(sample) : openFiles(server.proc.pid!).some((file) => file.startsWith(multipartArea));
    const ref = (n: number) => ({ groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: n });
    expect((await putPart(m.token, ref(1), data.subarray(0, partSize), 'proxy', server.url)).status).toBe(200);

    // Part 2 is on the wire when the process dies.
    const q = new URLSearchParams({ ...ref(2), partNumber: '2' } as Record<string, string>);
    const inFlight = http.request(`${server.url}/api/shares/upload/chunk?${q}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${m.token}`, 'Content-Length': '4096' },
    });
    inFlight.on('error', () => {});
    inFlight.write(data.subarray(partSize, partSize + 1000));
    // Killed while part 2 is being stored, not after a guessed delay.
    const sample = data.subarray(partSize + 900, partSize + 1000);
    await expect.poll(() => partArriving(sample), { timeout: 20_000, interval: 50 }).toBe(true);
    await server.stop('SIGKILL');

    server = await start(env);
    restarted = true;
    const status = await call('POST', '/api/shares/upload/status', { base: server.url, token: m.token, body: { groupId: init.json.groupId } });
    expect(status.status).toBe(200);
    expect(status.json.files[0].parts.map((p: { partNumber: number }) => p.partNumber)).toEqual([1]);
    const p2 = await putPart(m.token, ref(2), data.subarray(partSize), 'proxy', server.url);
    expect(p2.status).toBe(200);
    const done = await call('POST', '/api/shares/upload/complete', {
      base: server.url,
      token: m.token,
      body: { groupId: init.json.groupId, files: [{ uploadId: f.uploadId, storageKey: f.storageKey, parts: [{ partNumber: 1, etag: '' }, { partNumber: 2, etag: '' }] }] },
    });
    expect(done.status).toBe(200);
    const got = await fetch(`${server.url}${done.json.share.items[0].url}`);
    expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true);
    expect((await call('GET', '/api/auth/me', { base: server.url, token: m.token })).json.user.used_bytes).toBe(data.length);
  });

  it('restarts and aborts cleanly: nothing stored, nothing reserved', async () => {
    if (!restarted) {
      await server.stop('SIGKILL');
      server = await start(env);
      restarted = true;
    }
    const { token, groupId } = stored;
    expect((await call('POST', '/api/shares/upload/abort', { base: server.url, token, body: { groupId } })).status).toBe(200);
    const store = openStore(env, env.DATA_DIR!);
    expect(await store.list(`shared/${groupId}/`)).toEqual([]);
    expect(await store.listMultipartUploads(`shared/${groupId}/`)).toEqual([]);
    const again = await call('POST', '/api/shares/upload/init', { base: server.url, token, body: { files: [{ clientPath: 'b.bin', size: 10_000 }] } });
    expect(again.status).toBe(201);
  });
});

requires('s3').describe('the S3 server gone during complete', () => {
  it('answers 502 storage_unavailable, publishes nothing, and a retry succeeds once it is back', async () => {
    const env = await migratedServiceEnv();
    const endpoint = new URL(env.S3_ENDPOINT!);
    const relay = await tcpProxy({ host: endpoint.hostname, port: Number(endpoint.port || 80) });
    const server = await start({ ...env, S3_ENDPOINT: `http://127.0.0.1:${relay.port}`, S3_SET_CORS: 'false', UPLOAD_MODE: 'proxy' });
    try {
      const m = await member(server.url);
      const init = await call('POST', '/api/shares/upload/init', { base: server.url, token: m.token, body: { files: [{ clientPath: 'a.txt', size: 5 }] } });
      const f = init.json.files[0];
      const p = await putPart(m.token, { groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 }, Buffer.from('hello'), 'proxy', server.url);
      expect(p.status).toBe(200);
      const body = { groupId: init.json.groupId, files: [{ uploadId: f.uploadId, storageKey: f.storageKey, parts: [{ partNumber: 1, etag: p.etag }] }] };
      await relay.cut();
      const failed = await call('POST', '/api/shares/upload/complete', { base: server.url, token: m.token, body });
      expect([failed.status, failed.json.code]).toEqual([502, 'storage_unavailable']);
      expect(failed.text).not.toMatch(/127\.0\.0\.1|shared\/|stack/i);
      const list = await call('GET', '/api/shares', { base: server.url, token: m.token });
      expect(list.json.shares[0]).toMatchObject({ status: 'offline', upload_state: 'pending' });
      expect((await fetch(`${server.url}/f/${init.json.groupId}/a.txt`)).status).toBe(404);
      await relay.restore();
      const retried = await call('POST', '/api/shares/upload/complete', { base: server.url, token: m.token, body });
      expect(retried.status).toBe(200);
      expect(await (await fetch(`${server.url}/f/${init.json.groupId}/a.txt`)).text()).toBe('hello');
    } finally {
      await server.stop();
      await relay.close();
    }
  });
});

requires('postgres').describe('PostgreSQL connections dropped under load', () => {
  it('answers 503 while the database is gone and recovers without a restart', async () => {
    const env = await migratedServiceEnv();
    const dbUrl = new URL(env.DATABASE_URL!);
    const relay = await tcpProxy({ host: dbUrl.hostname, port: Number(dbUrl.port || 5432) });
    dbUrl.host = `127.0.0.1:${relay.port}`;
    const server = await start({ ...env, DATABASE_URL: dbUrl.toString() });
    try {
      const m = await member(server.url);
      const load = async () => (await call('GET', '/api/auth/me', { base: server.url, token: m.token })).status;
      expect(await load()).toBe(200);
      await relay.cut();
      const during = await Promise.all(Array.from({ length: 10 }, load));
      for (const s of during) expect([503]).toContain(s);
      await relay.restore();
      // Back once the relay is: five answers of 200 in a row (a dead pooled connection may still
      // fail one before that). Waited on, not counted against a short deadline: a loaded machine
      // answers slower, not differently.
      let inRow = 0;
      await expect.poll(async () => (inRow = (await load()) === 200 ? inRow + 1 : 0), { timeout: 90_000, interval: 100 }).toBeGreaterThanOrEqual(5);
      expect(server.proc.exitCode).toBeNull();
    } finally {
      await server.stop();
      await relay.close();
    }
  });

  it('keeps serving a cached hosted site while the database is gone: no query per request', async () => {
    const env = await migratedServiceEnv();
    const dbUrl = new URL(env.DATABASE_URL!);
    const relay = await tcpProxy({ host: dbUrl.hostname, port: Number(dbUrl.port || 5432) });
    dbUrl.host = `127.0.0.1:${relay.port}`;
    const server = await start({ ...env, DATABASE_URL: dbUrl.toString() });
    try {
      const form = new FormData();
      form.append('f', new Blob(['<p>still here</p>']), 'index.html');
      form.append('f', new Blob(['body{}'.repeat(100)]), 'app.css');
      const up = await call('POST', '/api/upload', { base: server.url, token: TEST_ADMIN_TOKEN, raw: form });
      const slug = up.json.project.slug;
      const page = (path: string) => call('GET', `/p/${slug}/${path}`, { base: server.hostedUrl! });
      expect((await page('')).status).toBe(200);
      expect((await page('app.css')).status).toBe(200);
      // The cache serves from memory for GUEST_CACHE_STALE_MS (10 s) after its last reading of
      // the epoch (a revocation must not outlive that), then answers 503 like the API. So the
      // answers that count are those finished well inside the window: a loaded machine makes
      // fewer of them, never a different one.
      const cutAt = Date.now();
      await relay.cut();
      let inWindow = 0;
      for (let i = 0; i < 10; i++) {
        const [html, css] = [await page(''), await page('app.css')];
        if (Date.now() - cutAt > GUEST_CACHE_STALE_MS - 3_000) break;
        expect(html.text).toContain('still here');
        expect(css.status).toBe(200);
        inWindow++;
      }
      expect(inWindow).toBeGreaterThan(0);
      expect((await call('GET', '/api/files', { base: server.url, token: TEST_ADMIN_TOKEN })).status).toBe(503);
      await relay.restore();
    } finally {
      await server.stop();
      await relay.close();
    }
  });
});
