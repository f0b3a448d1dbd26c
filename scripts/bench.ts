/**
 * `npm run bench [-- --quick] [-- --webhook] [-- --size 1024] [-- --rss-size 10240] [-- --storage fs|s3] [-- --runs 3] [-- --only downloads,hosted]`
 * (without --storage: an fs pass, then an s3 pass when S3_ENDPOINT and keys are set; a table each;
 * --only: just these sections of hosted, hosted-main, uploads, small-files, deletes, curl-put, downloads, zip, redirect (s3 only), directory, guest-languages, upload-rss, scale, flood;
 * hosted-main: the hosted pages from a second server with HOSTED_FRONT=off (the main thread, no front worker) beside the front's, bare Node and nginx (also part of hosted; issue 44);
 * guest-languages: the share and request pages' first byte and JavaScript in German and Arabic against English (issue 40);
 * flood (only when named, like scale) times a 1 MiB range while one member floods share-password PATCHes;
 * scale seeds 1,000 members, 100,000 shares and 1,000,000 items, or `--scale-factor` of that)
 *
 * Starts the production server on a fresh data directory (and, with --storage s3, the S3
 * server named by S3_ENDPOINT / S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY; with DATABASE_URL,
 * a fresh PostgreSQL database), seeds it, and prints each figure beside a baseline measured in
 * the same run, the plain way to do the same job: nginx serving the same bytes, a bare Node
 * server writing the same PUTs, the AWS SDK putting the same parts to the same S3 server, curl
 * fetching the same object from it by a presigned URL. Every
 * figure is the median of `--runs` runs. Not a test: it asserts nothing, it reports.
 * The sections live in scripts/bench/; this file starts the server and runs them in order.
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
// @ts-expect-error plain ESM helper shared with npm start
import { ensureBuilt } from './build-hash.mjs';
import { freshServiceEnv } from '../tests/support/services';
import { migrate, startServer, tempDir, TEST_ADMIN_TOKEN } from '../tests/support/server';
import { api, hasCommand, log, makeFile, MiB, PROJECTS, quick, request, RSS_SIZE, rssOf, rows, RUNS, SIZE, startNginx, storageArg, type BenchContext } from './bench/common';
import { s3FromEnv } from '../tests/support/env';
import { benchDeletes } from './bench/deletes';
import { benchFlood } from './bench/flood';
import { benchDirectory, seedDirectory } from './bench/directory';
import { benchScale, seedScale } from './bench/scale';
import { benchSmallFiles } from './bench/small-files';
import { benchDownloads } from './bench/downloads';
import { benchGuestLanguages } from './bench/guest-languages';
import { benchHosted, seedHostedSite, seedMainThreadSite } from './bench/hosted';
import { benchOneRequestUpload } from './bench/one-request';
import { benchRedirect } from './bench/redirect';
import { benchUploadRss, benchUploads, uploadOnce } from './bench/uploads';
import { benchZipDownloads } from './bench/zip-downloads';

const SECTIONS = ['hosted', 'hosted-main', 'uploads', 'small-files', 'deletes', 'curl-put', 'downloads', 'zip', 'redirect', 'directory', 'guest-languages', 'upload-rss', 'scale', 'flood'] as const;
const onlyArg = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] ?? '' : null;
const only = onlyArg === null ? null : new Set(onlyArg.split(',').map((s) => s.trim()));
if (only) for (const s of only) if (!(SECTIONS as readonly string[]).includes(s)) throw new Error(`--only: unknown section ${s} (one of ${SECTIONS.join(', ')})`);
const runs = (section: (typeof SECTIONS)[number]) => !only || only.has(section);

function printTable(title: string) {
  const cols = ['metric', 'value', 'baseline', 'ratio', 'goal'] as const;
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(`\n${title}\n`);
  console.log(line([...cols]));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(cols.map((c) => r[c])));
}

/**
 * The scale section's pass: a database seeded with SCALE_FACTOR × (1,000 members, 100,000 shares,
 * 1,000,000 items), then page views timed. PGlite, then PostgreSQL when DATABASE_URL is set.
 */
/**
 * The bench is one client measuring the server flat out, as many clients would load it: the
 * per-address and per-principal request budgets and the per-address download slots (its 20 ZIP
 * downloads at once, wrk's 32 connections) would measure their own 429s and queues instead.
 */
const ONE_CLIENT = { REQUESTS_PER_SECOND_PER_IP: '0', REQUESTS_PER_SECOND_PER_PRINCIPAL: '0', MAX_DOWNLOADS_PER_IP: '0' };

async function runScalePass(kind: 'PGlite' | 'PostgreSQL') {
  const pgUrl = process.env.DATABASE_URL;
  if (kind === 'PGlite') delete process.env.DATABASE_URL;
  try {
    const env: Record<string, string | undefined> = { ...(await freshServiceEnv()), ...ONE_CLIENT };
    for (const k of Object.keys(env)) if (k.startsWith('S3_') || k === 'STORAGE') delete env[k];
    const dataDir = tempDir('htmls-bench-scale-');
    try {
      log(`[scale, ${kind}] seeding…`);
      const tokens = await seedScale(env, dataDir);
      const server = await startServer({ ...env, DATA_DIR: dataDir });
      try {
        await benchScale(server.url, tokens, kind);
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  } finally {
    if (pgUrl) process.env.DATABASE_URL = pgUrl;
  }
}

/** Settings for a server of this pass on a database (and bucket) of its own. */
async function passEnv(storage: 'fs' | 's3'): Promise<Record<string, string | undefined>> {
  const env: Record<string, string | undefined> = { ...(await freshServiceEnv()), ...ONE_CLIENT };
  if (storage !== 's3') {
    for (const k of Object.keys(env)) if (k.startsWith('S3_') || k === 'STORAGE') delete env[k];
  }
  return env;
}

/**
 * The hosted-main section's second server: the same build and settings on data of its own, with
 * HOSTED_FRONT=off, so its hosted port is served by the main thread (issue 44).
 */
async function startMainThreadServer(storage: 'fs' | 's3') {
  const env = await passEnv(storage);
  const dataDir = tempDir('htmls-bench-main-thread-');
  const m = migrate({ DATA_DIR: dataDir, DATABASE_URL: env.DATABASE_URL });
  if (m.status !== 0) throw new Error(`migrate failed: ${m.stderr}`);
  const server = await startServer({ ...env, DATA_DIR: dataDir, HOSTED_FRONT: 'off' });
  if (!server.output().includes('served by the main thread')) throw new Error(`the HOSTED_FRONT=off server did not say it serves the hosted port itself:\n${server.output()}`);
  return { server, dataDir };
}

/** One pass: a fresh server on a fresh data directory (and database, and bucket for s3). */
async function runPass(storage: 'fs' | 's3') {
  if (storage === 's3') process.env.STORAGE = 's3';
  else delete process.env.STORAGE;
  const env = await passEnv(storage);
  const dataDir = tempDir('htmls-bench-');
  if (runs('directory')) {
    log(`[${storage}] seeding ${PROJECTS} projects…`);
    await seedDirectory(env, dataDir);
  } else {
    // Migrated before the server starts: on a loaded machine a first start's migration can
    // outlast the server's start-up deadline.
    const m = migrate({ DATA_DIR: dataDir, DATABASE_URL: env.DATABASE_URL });
    if (m.status !== 0) throw new Error(`migrate failed: ${m.stderr}`);
  }
  // --webhook: the member has a webhook for share.downloaded (a local receiver answering 204), to
  // show that events stay off the byte path: the download rows should not move.
  const webhook = process.argv.includes('--webhook');
  if (webhook) env.WEBHOOK_ALLOW_PRIVATE = 'true';
  let server = await startServer({ ...env, DATA_DIR: dataDir });
  const work = tempDir('htmls-bench-files-');
  let ctx: BenchContext | null = null;
  const hosted = runs('hosted') || runs('hosted-main');
  let mainThread: Awaited<ReturnType<typeof startMainThreadServer>> | null = null;
  // Started while the first server settles (its idle RSS is its own process's).
  const mainThreadStarting = hosted
    ? startMainThreadServer(storage).then((started) => (mainThread = started))
    : null;
  try {
    const admin = TEST_ADMIN_TOKEN;
    await api(server.url, 'POST', '/api/users', admin, { username: 'bench', password: 'bench-password', quota_bytes: 2 ** 50 });
    const member = (await api(server.url, 'POST', '/api/auth/login', admin, { username: 'bench', password: 'bench-password' })).token as string;
    if (webhook) {
      const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end())).listen(0, '127.0.0.1').unref();
      await new Promise((r) => receiver.once('listening', r));
      const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
      await api(server.url, 'POST', '/api/webhooks', member, { url, events: ['share.downloaded'] });
      log(`webhook for share.downloaded → ${url}`);
    }
    const site = path.join(work, 'site');
    mkdirSync(site);
    writeFileSync(path.join(site, 'placeholder'), '');
    const shareFile = path.join(work, 'share.bin');
    await makeFile(shareFile, SIZE);
    // nginx serves the share file from the same directory tree.
    spawnSync('ln', ['-s', shareFile, path.join(site, 'share.bin')]);
    // Idle is measured once the first pages have been served and the server has settled: start-up
    // (PGlite's first queries, Next's first renders) leaves a few hundred MiB of garbage that V8's
    // memory reducer returns only after ~10-15 s of quiet. The lowest reading over 30 s (10 s with
    // --quick) is idle.
    const settle = async () => {
      for (const p of ['/', '/files', '/htmls']) await request(server.url + p);
      let idle = Infinity;
      for (let i = 0; i < (quick ? 10 : 30); i++) {
        await new Promise((r) => setTimeout(r, 1000));
        idle = Math.min(idle, rssOf(server.proc.pid!));
      }
      return idle;
    };
    const restart = async (extra: Record<string, string> = {}) => {
      await server.stop();
      server = await startServer({ ...env, ...extra, DATA_DIR: dataDir });
      Object.assign(ctx!, { base: server.url, hosted: server.hostedUrl!, pid: server.proc.pid!, idle: await settle() });
    };
    ctx = { base: server.url, hosted: server.hostedUrl!, pid: server.proc.pid!, env, work, site, nginx: null, mainThread: null, admin, member, shareFile, idle: 0, restart };
    if (hosted) await seedHostedSite(ctx);
    const seeded = mainThreadStarting?.then(async (started) => {
      ctx!.mainThread = { base: started.server.url, hosted: started.server.hostedUrl! };
      await seedMainThreadSite(ctx!);
    });
    [ctx.idle] = await Promise.all([settle(), seeded]);
    ctx.nginx = hasCommand('nginx') ? await startNginx(site) : null;

    if (hosted) await benchHosted(ctx, { full: runs('hosted') });
    // Stopped once measured: the sections below measure one server.
    await (mainThread as Awaited<ReturnType<typeof startMainThreadServer>> | null)?.server.stop();
    const needShare = runs('downloads') || runs('zip') || (runs('redirect') && storage === 's3');
    if (runs('uploads')) await benchUploads(ctx);
    if (runs('small-files')) await benchSmallFiles(ctx);
    if (runs('deletes')) await benchDeletes(ctx);
    if (runs('curl-put')) await benchOneRequestUpload(ctx);
    // The uploads section deletes what it measured: the downloads get a share of their own.
    const share = needShare ? (await uploadOnce(ctx, shareFile, SIZE)).share : null;
    if (share && runs('downloads')) await benchDownloads(ctx, share);
    if (share && runs('zip')) await benchZipDownloads(ctx, share);
    if (share && runs('redirect')) await benchRedirect(ctx, share);
    if (runs('directory')) await benchDirectory(ctx);
    if (runs('guest-languages')) await benchGuestLanguages(ctx);
    if (runs('upload-rss')) await benchUploadRss(ctx);
  } finally {
    ctx?.nginx?.stop();
    await mainThreadStarting?.catch(() => {});
    const second = mainThread as Awaited<ReturnType<typeof startMainThreadServer>> | null;
    if (second) {
      await second.server.stop();
      rmSync(second.dataDir, { recursive: true, force: true });
    }
    await server.stop();
    // Gigabytes of test files and objects: never leave them behind.
    for (const dir of [work, dataDir, ctx?.nginx?.prefix]) if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  process.chdir(path.resolve(import.meta.dirname, '..'));
  const passes: ('fs' | 's3')[] = storageArg ? [storageArg as 'fs' | 's3'] : s3FromEnv() ? ['fs', 's3'] : ['fs'];
  log(`htmls bench: ${quick ? 'quick, ' : ''}${SIZE / MiB} MiB transfers, ${RSS_SIZE / MiB} MiB RSS upload, storage ${passes.join(' then ')}, ${RUNS} runs each`);
  ensureBuilt({ quiet: false });
  const tables: { title: string; rows: typeof rows }[] = [];
  if (only?.has('scale')) {
    for (const kind of ['PGlite', ...(process.env.DATABASE_URL ? ['PostgreSQL' as const] : [])] as const) {
      rows.length = 0;
      await runScalePass(kind);
      tables.push({ title: `scale: ${kind}`, rows: [...rows] });
    }
    only.delete('scale');
  }
  if (only?.has('flood')) {
    rows.length = 0;
    const env: Record<string, string | undefined> = await freshServiceEnv();
    for (const k of Object.keys(env)) if (k.startsWith('S3_') || k === 'STORAGE') delete env[k];
    await benchFlood(env);
    tables.push({ title: `flood: fs${process.env.DATABASE_URL ? ', PostgreSQL' : ', PGlite'}`, rows: [...rows] });
    only.delete('flood');
  }
  for (const storage of only?.size === 0 ? [] : passes) {
    rows.length = 0;
    await runPass(storage);
    tables.push({ title: `storage: ${storage}${process.env.DATABASE_URL ? ', PostgreSQL' : ', PGlite'}`, rows: [...rows] });
  }
  for (const t of tables) {
    rows.splice(0, rows.length, ...t.rows);
    printTable(t.title);
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error('bench failed:', e);
    process.exit(1);
  },
);
