/**
 * `npm run bench [-- --quick] [-- --size 1024] [-- --rss-size 10240] [-- --storage fs|s3] [-- --runs 3]`
 *
 * Starts the production server on a fresh data directory (and, with --storage s3, the S3
 * server named by S3_ENDPOINT / S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY; with DATABASE_URL,
 * a fresh PostgreSQL database), seeds it, and prints each figure beside a baseline measured in
 * the same run: nginx serving the same bytes, the same store read or written directly. Every
 * figure is the median of `--runs` runs. Not a test: it asserts nothing, it reports.
 * The sections live in scripts/bench/; this file starts the server and runs them in order.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
// @ts-expect-error plain ESM helper shared with npm start
import { ensureBuilt } from './build-hash.mjs';
import { createFsStorage } from '../lib/storage/fs';
import { createS3Storage } from '../lib/storage/s3';
import type { StorageDriver } from '../lib/storage/types';
import { freshServiceEnv } from '../tests/support/services';
import { startServer, tempDir, TEST_ADMIN_TOKEN } from '../tests/support/server';
import { api, hasCommand, log, makeFile, MiB, PROJECTS, quick, RSS_SIZE, rssOf, rows, RUNS, SIZE, startNginx, storageArg, type BenchContext } from './bench/common';
import { benchDirectory, seedDirectory } from './bench/directory';
import { benchDownloads } from './bench/downloads';
import { benchHosted, seedHostedSite } from './bench/hosted';
import { benchUploadRss, benchUploads } from './bench/uploads';

function storeFor(env: Record<string, string | undefined>, dataDir: string): StorageDriver {
  if (env.STORAGE !== 's3') return createFsStorage(path.join(dataDir, 'store'));
  return createS3Storage({
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION ?? 'us-east-1',
    bucket: env.S3_BUCKET!,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
    setCors: false,
  });
}

function printTable() {
  const cols = ['metric', 'value', 'baseline', 'ratio', 'goal'] as const;
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(line([...cols]));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(cols.map((c) => r[c])));
}

async function main() {
  process.chdir(path.resolve(import.meta.dirname, '..'));
  log(`htmls bench: ${quick ? 'quick, ' : ''}${SIZE / MiB} MiB transfers, ${RSS_SIZE / MiB} MiB RSS upload, storage ${storageArg}, ${RUNS} runs each`);
  ensureBuilt({ quiet: false });
  if (storageArg === 's3') process.env.STORAGE = 's3';
  else delete process.env.STORAGE;
  const env = await freshServiceEnv();
  if (storageArg !== 's3') {
    for (const k of Object.keys(env)) if (k.startsWith('S3_') || k === 'STORAGE') delete env[k];
  }
  const dataDir = tempDir('htmls-bench-');
  log(`seeding ${PROJECTS} projects…`);
  await seedDirectory(env, dataDir);
  const server = await startServer({ ...env, DATA_DIR: dataDir });
  const store = storeFor(env, dataDir);
  const work = tempDir('htmls-bench-files-');
  let ctx: BenchContext | null = null;
  try {
    const admin = TEST_ADMIN_TOKEN;
    await api(server.url, 'POST', '/api/users', admin, { username: 'bench', password: 'bench-password', quota_bytes: 2 ** 50 });
    const member = (await api(server.url, 'POST', '/api/auth/login', admin, { username: 'bench', password: 'bench-password' })).token as string;
    const site = path.join(work, 'site');
    mkdirSync(site);
    writeFileSync(path.join(site, 'placeholder'), '');
    const shareFile = path.join(work, 'share.bin');
    await makeFile(shareFile, SIZE);
    // nginx serves the share file from the same directory tree.
    spawnSync('ln', ['-s', shareFile, path.join(site, 'share.bin')]);
    ctx = { base: server.url, hosted: server.hostedUrl!, pid: server.proc.pid!, env, store, work, site, nginx: null, admin, member, shareFile, idle: rssOf(server.proc.pid!) };
    await seedHostedSite(ctx);
    ctx.nginx = hasCommand('nginx') ? await startNginx(site) : null;

    await benchHosted(ctx);
    const share = await benchUploads(ctx);
    await benchDownloads(ctx, share);
    await benchDirectory(ctx);
    await benchUploadRss(ctx);
  } finally {
    ctx?.nginx?.stop();
    await server.stop();
    store.close?.();
    // Gigabytes of test files and objects: never leave them behind.
    for (const dir of [work, dataDir, ctx?.nginx?.prefix]) if (dir) rmSync(dir, { recursive: true, force: true });
  }
  printTable();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error('bench failed:', e);
    process.exit(1);
  },
);
