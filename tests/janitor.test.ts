import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http';
import { migratedServiceEnv } from './support/file-server';
import { startInProcess, type InProcessServer } from './support/in-process';
import { tempDir, TEST_ADMIN_TOKEN } from './support/server';
import { openStore } from './support/store';

async function memberOn(base: string): Promise<string> {
  const username = `jan${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
  await call('POST', '/api/users', { base, token: TEST_ADMIN_TOKEN, body: { username, password: 'long enough', quota_bytes: 1024 ** 3 } });
  return (await call('POST', '/api/auth/login', { base, body: { username, password: 'long enough' } })).json.token;
}

/**
 * Two services on one data directory for the stale uploads (the second sees them stale), one
 * after the other in this process; the first also serves the temporary-file cases when this run's
 * store is the fs store, whose own temporary area they look at. On S3 those cases have an fs
 * service of their own.
 */
const tmp = tempDir('htmls-test-tmp-');
/**
 * The janitor sweeps the process's temporary folder (os.tmpdir(), as a zip's spool is made
 * there): this file's services run in this process, so its TMPDIR is `tmp` while they run.
 */
const tmpdirWas = process.env.TMPDIR;
let env: Record<string, string | undefined>;
/** The first service: uploads live for a day on it, so nothing it holds is stale yet. */
let first: InProcessServer;
/** Where the janitor's temporary-file work is watched: a service on the fs store (the process's temporary folder is `tmp`). */
let tmpServer: InProcessServer;
beforeAll(async () => {
  env = await migratedServiceEnv();
  process.env.TMPDIR = tmp;
  first = await startInProcess({ ...env, JANITOR_INTERVAL_SECONDS: '1', MAX_PENDING_UPLOADS: '200' });
  if (env.STORAGE !== 's3') tmpServer = first;
  else {
    const fsEnv = Object.fromEntries(Object.entries(await migratedServiceEnv()).filter(([k]) => !k.startsWith('S3_') && k !== 'STORAGE'));
    tmpServer = await startInProcess({ ...fsEnv, STORAGE: 'fs', JANITOR_INTERVAL_SECONDS: '1' });
  }
});
afterAll(async () => {
  await first?.stop();
  if (tmpServer !== first) await tmpServer?.stop();
  if (tmpdirWas === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = tmpdirWas;
});

// First: the stale-upload case stops the first server.
describe('the janitor on temporary files', () => {
  it('removes temporary files older than the longest request, and keeps younger ones', async () => {
    const storeTmp = path.join(tmpServer.dataDir, 'store', 'tmp');
    mkdirSync(storeTmp, { recursive: true });
    const crashed = path.join(storeTmp, 'left-by-a-crash');
    writeFileSync(crashed, 'half a part');
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(crashed, hourAgo, hourAgo);
    writeFileSync(path.join(storeTmp, 'being-written'), 'a part arriving now');
    await expect.poll(() => readdirSync(storeTmp), { timeout: 60_000, interval: 250 }).toEqual(['being-written']);
  });

  it("removes a site zip's spool a crash left in the temporary folder, and keeps young ones and others' files (issue 22, item 11)", async () => {
    const hourAgo = new Date(Date.now() - 3600_000);
    const spool = (name: string, old: boolean) => {
      const dir = path.join(tmp, name);
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'upload.zip'), 'half a zip');
      if (old) for (const p of [path.join(dir, 'upload.zip'), dir]) utimesSync(p, hourAgo, hourAgo);
    };
    spool('htmls-zip-crashed', true);
    spool('htmls-zip-arriving', false);
    spool('someone-elses', true);
    await expect.poll(() => readdirSync(tmp).filter((n) => ['htmls-zip-crashed', 'htmls-zip-arriving', 'someone-elses'].includes(n)).sort(), { timeout: 60_000, interval: 250 }).toEqual(['htmls-zip-arriving', 'someone-elses']);
  });
});

describe('the janitor', () => {
  it('aborts every stale upload in one run, not just the first hundred', { timeout: 240_000 }, async () => {
    const a = first;
    const token = await memberOn(a.url);
    // Ten at a time (one after another, the 150 took a good part of this test).
    for (let i = 0; i < 150; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, (_, j) => call('POST', '/api/shares/upload/init', { base: a.url, token, body: { files: [{ clientPath: `f${i + j}.bin`, size: 10 }] } })),
      );
      for (const r of batch) expect(r.status).toBe(201);
    }
    await a.stop();
    // Second service on the same data: every upload is now stale, and the janitor runs once
    // (a second after start; the next run would be an hour later).
    const b = await startInProcess({ ...env, DATA_DIR: a.dataDir, PENDING_UPLOAD_TTL_HOURS: '0.0001', JANITOR_INTERVAL_SECONDS: '3600' });
    const store = openStore(env, a.dataDir);
    try {
      await expect
        .poll(async () => (await call('GET', '/api/shares', { base: b.url, token })).json.shares.length, { timeout: 60_000, interval: 250 })
        .toBe(0);
      // A group's records go in one transaction and its bytes right after: the last group's
      // multipart upload may still be aborting when the list is already empty.
      await expect.poll(() => store.listMultipartUploads('shared/'), { timeout: 30_000, interval: 250 }).toEqual([]);
    } finally {
      store.close();
      await b.stop();
    }
  });
});
