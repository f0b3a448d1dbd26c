import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call } from './support/http';
import { requires } from './support/requires';
import { migratedServiceEnv } from './support/file-server';
import { startServer, TEST_ADMIN_TOKEN, type RunningServer } from './support/server';
import { tcpProxy } from './support/tcp-proxy';

// Issue 22, finding 7: an instance cut off from the database kept serving hosted sites with
// their old access rules for ever (a file taken offline, a new password: still 200 after 40 s),
// while the share byte path stops after 10 s. Sites get the same bound. B reaches PostgreSQL
// through a relay the test cuts; A keeps its connection and makes the changes. PGlite belongs to
// one process: PostgreSQL only.
let a: RunningServer;
let b: RunningServer;
let relay: Awaited<ReturnType<typeof tcpProxy>>;

requires('postgres').describe('hosted sites on an instance cut off from the database', () => {
  beforeAll(async () => {
    const services = await migratedServiceEnv();
    const db = new URL(services.DATABASE_URL!);
    relay = await tcpProxy({ host: db.hostname, port: Number(db.port || 5432) });
    const viaRelay = new URL(db);
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String(relay.port);
    const env = services;
    [a, b] = await Promise.all([startServer(env), startServer({ ...env, DATABASE_URL: viaRelay.toString() })]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await relay?.close();
  });

  it('stop answering from memory within the shares bound (10 s) once a file went offline and a password was set meanwhile, and follow the new rules when the database is back', { timeout: 90_000 }, async () => {
    const slug = `cut-${randomBytes(4).toString('hex')}`;
    const form = new FormData();
    form.append('slug', slug);
    form.append('f', new Blob(['<p>home</p>']), 'index.html');
    form.append('f', new Blob(['the secret']), 'secret.txt');
    const up = await call('POST', '/api/upload', { base: a.url, token: TEST_ADMIN_TOKEN, raw: form });
    expect(up.status).toBe(201);
    const secretId = up.json.project.files.find((f: { path: string }) => f.path === 'secret.txt').id;
    const onB = (path: string) => call('GET', `/p/${slug}/${path}`, { base: b.hostedUrl!, headers: { Accept: 'application/json' } });
    // B has read both (its site cache and its finished-reply cache hold them), after its epoch
    // poll has seen the upload (a later reading of that move would empty the cache again).
    await expect.poll(async () => (await onB('secret.txt')).text, { timeout: 5000 }).toBe('the secret');
    expect((await onB('')).status).toBe(200);

    await relay.cut();
    try {
      expect((await call('PATCH', '/api/status', { base: a.url, token: TEST_ADMIN_TOKEN, body: { id: secretId, status: 'offline' } })).status).toBe(200);
      expect((await call('PATCH', `/api/projects/${slug}`, { base: a.url, token: TEST_ADMIN_TOKEN, body: { password: 'a new password' } })).status).toBe(200);
      expect((await call('GET', `/p/${slug}/secret.txt`, { base: a.hostedUrl! })).status).toBe(401);
      // B cannot know; it may answer from memory for a while, not for ever: 503 within the bound.
      await expect.poll(async () => (await onB('secret.txt')).status, { timeout: 25_000, interval: 500 }).toBe(503);
      const page = await onB('');
      expect(page.status).toBe(503);
      expect(page.json.code).toBe('database_unavailable');
    } finally {
      await relay.restore();
    }
    // Back: the new rules, on B too.
    await expect.poll(async () => (await onB('')).status, { timeout: 20_000, interval: 250 }).toBe(401);
    expect((await onB('secret.txt')).status).toBe(401);
  });
});
