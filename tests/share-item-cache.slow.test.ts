import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it, onTestFailed } from 'vitest';
import { call, cookieFrom } from './support/http';
import { postgresUrl } from './support/env';
import { requires } from './support/requires';
import { migratedServiceEnv } from './support/file-server';
import { startServer, TEST_ADMIN_TOKEN, type RunningServer } from './support/server';
import { expireShare, uploadShare } from './support/shares';

// The byte path keeps a published share's item in memory (lib/shares/share-item-cache.ts), so a
// video player's seeks cost no database round trip. What a guest relies on: a change made on
// one instance reaches the other (each instance polls the shares epoch 4 times a second), and a
// cached file keeps playing while the database is away. PGlite belongs to one process:
// PostgreSQL only.
let a: RunningServer;
let b: RunningServer;
let dbUrl: string;
let token: string;
/** How a test waits for B to follow A: on the change itself, with a deadline only a broken invalidation misses. */
const FOLLOWS = { timeout: 20_000, interval: 50 };

const range = (base: string, url: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${url}`, { headers: { Range: 'bytes=0-9', ...headers } }).then(async (r) => ({ status: r.status, body: Buffer.from(await r.arrayBuffer()) }));

requires('postgres').describe('the share item cache', () => {
  beforeAll(async () => {
    const services = await migratedServiceEnv();
    dbUrl = services.DATABASE_URL!;
    const env = { ...services, UPLOAD_MODE: 'proxy' };
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
    const username = `cache${randomBytes(4).toString('hex')}`;
    await call('POST', '/api/users', { base: a.url, token: TEST_ADMIN_TOKEN, body: { username, password: 'long enough', quota_bytes: 1024 ** 3 } });
    token = (await call('POST', '/api/auth/login', { base: a.url, body: { username, password: 'long enough' } })).json.token;
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  async function publish(files: Record<string, Buffer>) {
    const { share } = await uploadShare(token, files, { base: a.url });
    expect(share).not.toBeNull();
    expect((await call('PATCH', `/api/shares/${share.id}`, { base: a.url, token, body: { status: 'online' } })).status).toBe(200);
    return share as { id: string; items: { url: string }[] };
  }

  it('an offline switch, a password and a deletion on one instance reach the other', async () => {
    const data = randomBytes(1000);
    const share = await publish({ 'clip.bin': data });
    const url = share.items[0].url;
    // B has served it, so B holds it in its cache from here on.
    await expect.poll(async () => (await range(b.url, url)).status, { timeout: 5000 }).toBe(206);
    expect((await range(b.url, url)).body.equals(data.subarray(0, 10))).toBe(true);

    const patch = (body: object) => call('PATCH', `/api/shares/${share.id}`, { base: a.url, token, body });
    await patch({ status: 'offline' });
    await expect.poll(async () => (await range(b.url, url)).status, FOLLOWS).toBe(404);
    // The instance that made the change never serves the old state, not even once.
    expect((await range(a.url, url)).status).toBe(404);

    await patch({ status: 'online', password: 'cache-test-pw' });
    await expect.poll(async () => (await range(b.url, url)).status, FOLLOWS).toBe(401);
    const unlock = await call('POST', `/f/${share.id}/unlock`, { base: a.url, body: { password: 'cache-test-pw' } });
    const cookie = cookieFrom(unlock.cookies, `htmls_share_unlock_${share.id}`);
    expect((await range(b.url, url, { Cookie: cookie })).status).toBe(206);

    // A new password makes the old unlock cookie worthless on B too.
    await patch({ password: 'another-pw-entirely' });
    await expect.poll(async () => (await range(b.url, url, { Cookie: cookie })).status, FOLLOWS).toBe(401);

    await expireShare(token, share.id, { base: a.url });
    await expect.poll(async () => (await range(b.url, url)).status, FOLLOWS).toBe(410);

    expect((await call('DELETE', `/api/shares/${share.id}`, { base: a.url, token })).status).toBe(204);
    await expect.poll(async () => (await range(b.url, url)).status, FOLLOWS).toBe(404);
  });

  it('a download limit is never answered from the cache: the limit holds on the other instance', async () => {
    const share = await publish({ 'once.bin': randomBytes(100) });
    const url = share.items[0].url;
    expect((await fetch(`${b.url}${url}`)).status).toBe(200);
    await call('PATCH', `/api/shares/${share.id}`, { base: a.url, token, body: { max_downloads: 1 } });
    // The first download (before the limit) is counted when B flushes its counts: wait for it.
    await expect.poll(async () => (await call('GET', '/api/shares', { base: a.url, token })).json.shares.find((s: { id: string }) => s.id === share.id).download_count, { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await fetch(`${b.url}${url}`)).status, FOLLOWS).toBe(410);
  });

  it('keeps serving a cached file while the database is briefly away, answers 503 for the rest, and stops after 10 s', { timeout: 60_000 }, async () => {
    // What b logged (an answer other than 503 names its error there): a failure on a loaded CI
    // machine once saw a 500 here that runs alone never showed.
    onTestFailed(() => console.error(`instance b's output:\n${b.output()}`));
    const data = randomBytes(2000);
    // b polls the shares epoch, and a reading of a move after b cached the file empties b's
    // cache: then the file is not in memory when the database goes away (CI saw this test fail
    // so, twice, on a loaded machine). So b must have read every move before it caches the file.
    // The shares go online behind the API's back (no move: a PATCH would move the epoch, and b's
    // late reading of that move could be what the probe below sees). The previous test ended on
    // b having read its last move (its 410 comes only from a dropped entry), so the one move left
    // is the probe taken offline through the API: a probe b holds in its cache answers 404 on b
    // only once b has read it. Then b caches the file for good.
    const name = new URL(dbUrl).pathname.slice(1);
    const db = postgres(dbUrl, { max: 1, onnotice: () => {} });
    const quietly = async (files: Record<string, Buffer>) => {
      const { share } = await uploadShare(token, files, { base: a.url });
      await db`update share_groups set status = 'online' where id = ${share.id}`;
      return share as { id: string; items: { url: string }[] };
    };
    let share: { id: string; items: { url: string }[] };
    let probe: { id: string; items: { url: string }[] };
    try {
      share = await quietly({ 'a.bin': data, 'b.bin': randomBytes(10) });
      probe = await quietly({ 'probe.bin': randomBytes(10) });
      // That b holds the probe is seen by taking it offline behind b's back (no epoch move):
      // b still answers 206 only from memory. A load a move overtook is not kept: try again.
      await expect
        .poll(async () => {
          await db`update share_groups set status = 'online' where id = ${probe.id}`;
          const loaded = (await range(b.url, probe.items[0].url)).status;
          await db`update share_groups set status = 'offline' where id = ${probe.id}`;
          return loaded === 206 && (await range(b.url, probe.items[0].url)).status;
        }, FOLLOWS)
        .toBe(206);
    } finally {
      await db.end();
    }
    const [cached, uncached] = share.items.map((i) => i.url);
    // The one move left: the probe taken offline through the API. Its bytes stay in the store
    // and b's entry says online, so b answers 404 only once it has read that move. (A deletion
    // proved nothing: b's entry answered 404 as soon as the store had dropped the bytes, and
    // b's reading of the move came later and emptied its cache after it held the file.)
    expect((await call('PATCH', `/api/shares/${probe.id}`, { base: a.url, token, body: { status: 'offline' } })).status).toBe(200);
    await expect.poll(async () => (await range(b.url, probe.items[0].url)).status, FOLLOWS).toBe(404);
    expect((await range(b.url, cached)).status).toBe(206);
    const admin = postgres(postgresUrl()!, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`alter database "${name}" allow_connections false`);
      await admin.unsafe(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`);
      // At once (the cache answers for 10 s after its last reading of the epoch, and reaching
      // a refusing database may take a while on a busy machine): the cached file still plays.
      const r = await range(b.url, cached);
      expect(r.status).toBe(206);
      expect(r.body.equals(data.subarray(0, 10))).toBe(true);
      await expect.poll(async () => (await call('GET', '/api/shares', { base: b.url, token })).status, { timeout: 5000 }).toBe(503);
      const miss = await call('GET', uncached, { base: b.url, headers: { Accept: 'application/json' } });
      expect(miss.status).toBe(503);
      expect(miss.json.code).toBe('database_unavailable');
      // Not for ever: after 10 s without a reading of the shares epoch, the cache stops answering
      // (a share taken offline meanwhile on an instance that can reach the database must not
      // keep playing here).
      await expect.poll(async () => (await range(b.url, cached)).status, { timeout: 20_000, interval: 500 }).toBe(503);
    } finally {
      await admin.unsafe(`alter database "${name}" allow_connections true`);
      await admin.end();
    }
    await expect.poll(async () => (await range(b.url, uncached)).status, { timeout: 10_000 }).toBe(206);
  });
});
