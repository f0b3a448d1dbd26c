/**
 * Issue 44, item 1: two services in one process (server.ts createService), each on its own copy
 * of the template and its own settings, share nothing but the process: members, shares and
 * hosted sites (and the caches of them), per-address caps and budgets, the janitor. Both run
 * in this test process, without Next; the first one has the hosted front's thread, the second
 * serves its hosted port itself (one front per process).
 *
 * Every client here is 127.0.0.1 (TRUST_PROXY=0): the per-address limits see one address at
 * both services.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedServiceEnv } from './support/file-server';
import { siteForm } from './support/hosting';
import { call } from './support/http';
import { startInProcess, type InProcessServer } from './support/in-process';
import { TEST_ADMIN_TOKEN } from './support/server';
import { dropTestDatabase } from './support/services';
import { uploadShare } from './support/shares';

const shared = { TRUST_PROXY: '0', MAX_CONNECTIONS_PER_IP: '4', REQUESTS_PER_SECOND_PER_IP: '10', JANITOR_INTERVAL_SECONDS: '1' };

let a: InProcessServer;
let b: InProcessServer;
const envs: Record<string, string | undefined>[] = [];
const stopped = new Set<InProcessServer>();

beforeAll(async () => {
  const envA = await migratedServiceEnv();
  const envB = await migratedServiceEnv();
  envs.push(envA, envB);
  // A's pending uploads go stale in about a second; B's keep the default day. B writes its
  // pages in German unless asked otherwise.
  a = await startInProcess({ ...envA, ...shared, PENDING_UPLOAD_TTL_HOURS: '0.0003' });
  b = await startInProcess({ ...envB, ...shared, DEFAULT_LOCALE: 'de' });
}, 120_000);

afterAll(async () => {
  for (const s of [a, b]) if (s && !stopped.has(s)) await s.stop();
  for (const s of [a, b]) if (s) rmSync(s.dataDir, { recursive: true, force: true });
  for (const env of envs) if (env.DATABASE_URL) await dropTestDatabase(env.DATABASE_URL).catch(() => {});
});

async function createMember(base: string) {
  const username = `m${randomBytes(5).toString('hex')}`;
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const c = await call('POST', '/api/users', { base, token: TEST_ADMIN_TOKEN, body: { username, password, quota_bytes: 1024 ** 3, role: 'member' } });
  expect(c.status).toBe(201);
  const l = await call('POST', '/api/auth/login', { base, body: { username, password } });
  expect(l.status).toBe(200);
  return { username, password, token: l.json.token as string };
}

const health = async (base: string) => (await call('GET', '/api/health', { base })).json as { ok: boolean; janitor: { runs: number } };

describe('two services in one process', () => {
  const slug = `same-${randomBytes(4).toString('hex')}`;
  const page = async (s: InProcessServer) => (await fetch(`${s.hostedUrl}/p/${slug}/index.html`)).text();

  it('a member and a share made on one are not on the other', async () => {
    const m = await createMember(a.url);
    expect((await call('GET', '/api/auth/me', { base: a.url, token: m.token })).status).toBe(200);
    expect((await call('GET', '/api/auth/me', { base: b.url, token: m.token })).status).toBe(401);
    expect((await call('POST', '/api/auth/login', { base: b.url, body: { username: m.username, password: m.password } })).status).toBe(401);

    const body = randomBytes(1000);
    const { share } = await uploadShare(m.token, { 'a.bin': body }, { base: a.url });
    expect(share).toBeTruthy();
    // Twice on A (the second from its share cache), then on B: B has no such share.
    for (let i = 0; i < 2; i++) {
      const r = await fetch(`${a.url}/f/${share.id}/a.bin`);
      expect(Buffer.from(await r.arrayBuffer()).equals(body)).toBe(true);
    }
    const onB = await fetch(`${b.url}/f/${share.id}/a.bin`);
    expect(onB.status).toBe(404);
    // …and says so in its own DEFAULT_LOCALE (German), as A says its own 404s in English.
    expect(await onB.text()).toContain('<html lang="de"');
    expect(await (await fetch(`${a.url}/f/${share.id}/nothing.bin`)).text()).toContain('<html lang="en"');
  });

  it('each serves its own hosted site under the same slug (site and reply caches are its own)', async () => {
    for (const [s, text] of [[a, 'site of A'], [b, 'site of B']] as const) {
      const r = await call('POST', '/api/upload', { base: s.url, token: TEST_ADMIN_TOKEN, raw: siteForm({ 'index.html': `<p>${text}</p>` }, { slug }) });
      expect(r.status).toBe(201);
    }
    // Each read twice, in turns: a cached reply of one is never the other's answer.
    for (let i = 0; i < 2; i++) {
      expect(await page(a)).toContain('site of A');
      expect(await page(b)).toContain('site of B');
    }
  });

  it("an address at its connection cap on one service is not at the other's", async () => {
    const sockets: Socket[] = [];
    const closed = new Set<Socket>();
    try {
      // Five connections that send nothing: A caps 127.0.0.1 at four, so it closes one at least.
      for (let i = 0; i < 5; i++) {
        const s = connect(a.port, '127.0.0.1');
        s.on('error', () => {});
        s.once('close', () => closed.add(s));
        sockets.push(s);
      }
      await expect.poll(() => closed.size, { timeout: 30_000 }).toBeGreaterThan(0);
      // Meanwhile B takes a connection from the same address and answers on it.
      const r = await call('GET', '/api/health', { base: b.url });
      expect(r.status).toBe(200);
    } finally {
      for (const s of sockets) s.destroy();
      // A counts them gone when it sees them close, which a loaded machine may take a moment to
      // do: until then A refuses this address's next connection (the next test's first call).
      await expect
        .poll(() => call('GET', '/api/health', { base: a.url }).then((r) => r.status, () => 0), { timeout: 30_000 })
        .toBe(200);
    }
  });

  it('the janitor of each works on its own data, with its own settings', async () => {
    const pending = async (s: InProcessServer, id: string) =>
      ((await call('GET', '/api/shares', { base: s.url, token: TEST_ADMIN_TOKEN })).json.shares as { id: string; upload_state: string }[]).some((x) => x.id === id && x.upload_state === 'pending');
    const files = { 'p.bin': randomBytes(100) };
    const onA = await uploadShare(TEST_ADMIN_TOKEN, files, { base: a.url, noComplete: true });
    const onB = await uploadShare(TEST_ADMIN_TOKEN, files, { base: b.url, noComplete: true });
    const idA = onA.init.json.groupId as string;
    const idB = onB.init.json.groupId as string;
    expect(await pending(a, idA)).toBe(true);
    expect(await pending(b, idB)).toBe(true);
    // A's janitor aborts A's stale upload (A's TTL: about a second)…
    await expect.poll(() => pending(a, idA), { timeout: 30_000, interval: 250 }).toBe(false);
    // …and B's, running meanwhile on B's data with B's TTL (a day), keeps B's.
    const runs = (await health(b.url)).janitor.runs;
    expect(runs).toBeGreaterThan(0);
    await expect.poll(async () => (await health(b.url)).janitor.runs, { timeout: 30_000, interval: 250 }).toBeGreaterThan(runs);
    expect(await pending(b, idB)).toBe(true);
  });

  it("a flood from one address at one service leaves the other's request budget alone", async () => {
    let status = 200;
    for (let i = 0; i < 500 && status !== 429; i++) status = (await call('GET', '/api/health', { base: a.url })).status;
    expect(status).toBe(429);
    expect((await call('GET', '/api/health', { base: b.url })).status).toBe(200);
  });

  it('closing one leaves the other answering', async () => {
    await a.stop();
    stopped.add(a);
    await expect(fetch(`${a.url}/api/health`)).rejects.toThrow();
    expect((await health(b.url)).ok).toBe(true);
    // B's janitor goes on after A's stopped (A's stop stops A's alone).
    const runs = (await health(b.url)).janitor.runs;
    await expect.poll(async () => (await health(b.url)).janitor.runs, { timeout: 30_000, interval: 250 }).toBeGreaterThan(runs);
    expect(await page(b)).toContain('site of B');
  });

  it("Next's pages are one service's per process: a second service with pages is refused, saying so", { timeout: 120_000 }, async () => {
    const env = await migratedServiceEnv();
    envs.push(env);
    const c = await startInProcess({ ...env, ...shared }, { pages: true });
    try {
      const home = await fetch(c.url);
      await home.body?.cancel();
      expect(home.status).toBe(200);
      await expect(startInProcess({ ...env, ...shared }, { pages: true })).rejects.toThrow(/pages of one service per process/);
      // B (without pages) still answers beside it.
      expect((await health(b.url)).ok).toBe(true);
    } finally {
      await c.stop();
      rmSync(c.dataDir, { recursive: true, force: true });
    }
  });
});
