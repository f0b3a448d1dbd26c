/**
 * `npm run bench [-- --quick] [-- --size 1024] [-- --rss-size 10240] [-- --storage fs|s3] [-- --runs 3]`
 *
 * Starts the production server on a fresh data directory (and, with --storage s3, the S3
 * server named by S3_ENDPOINT / S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY; with DATABASE_URL,
 * a fresh PostgreSQL database), seeds it, and prints each figure beside a baseline measured in
 * the same run: nginx serving the same bytes, the same store read or written directly. Every
 * figure is the median of `--runs` runs. Not a test: it asserts nothing, it reports.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
// @ts-expect-error plain ESM helper shared with npm start
import { ensureBuilt } from './build-hash.mjs';
import { createDb } from '../db/client';
import { applyMigrations } from '../db/migrate';
import { hostedFiles, projects } from '../db/schema';
import { createFsStorage } from '../lib/storage/fs';
import { createS3Storage } from '../lib/storage/s3';
import type { StorageDriver } from '../lib/storage/types';
import { freshServiceEnv } from '../tests/support/services';
import { freePort, startServer, tempDir, TEST_ADMIN_TOKEN, type RunningServer } from '../tests/support/server';

const MiB = 1024 * 1024;
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const quick = flag('quick');
const storageArg = args.includes('--storage') ? args[args.indexOf('--storage') + 1] : process.env.STORAGE === 's3' ? 's3' : 'fs';
const SIZE = option('size', quick ? 64 : 1024) * MiB;
const RSS_SIZE = option('rss-size', quick ? 256 : 10 * 1024) * MiB;
const RUNS = Math.max(1, option('runs', 3));
const WRK_SECONDS = quick ? 2 : 5;
const PROJECTS = option('projects', quick ? 1000 : 10_000);

interface Row {
  metric: string;
  value: string;
  baseline: string;
  ratio: string;
  goal: string;
}
const rows: Row[] = [];
const log = (s: string) => process.stderr.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const mbps = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** A goal is on the ratio to the baseline (`×` in its text) or on the value itself. */
function addRow(
  metric: string,
  value: number,
  unit: string,
  baseline: number | null,
  baseLabel: string,
  goal?: { min?: number; max?: number; text: string },
  higherIsBetter = true,
) {
  const ratio = baseline ? value / baseline : null;
  let met = '';
  if (goal) {
    const x = goal.text.includes('×') ? (ratio ?? 0) : value;
    const ok = (goal.min === undefined || x >= goal.min) && (goal.max === undefined || x <= goal.max);
    met = `${goal.text}: ${ok ? 'met' : 'NOT met'}`;
  }
  rows.push({
    metric,
    value: `${fmt(value, value < 100 ? 1 : 0)} ${unit}`,
    baseline: baseline === null ? '—' : `${fmt(baseline, baseline < 100 ? 1 : 0)} ${unit} (${baseLabel})`,
    ratio: ratio === null ? '—' : `${fmt(ratio, 2)}×${higherIsBetter ? '' : ' (lower is better)'}`,
    goal: met,
  });
}

// ---------------------------------------------------------------- helpers

function request(url: string, opts: http.RequestOptions & { body?: Buffer | Readable } = {}): Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    // A fresh connection each time: a pooled socket the server closed while idle would reset.
    const req = http.request(url, { ...opts, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (opts.body instanceof Readable) opts.body.pipe(req);
    else req.end(opts.body);
  });
}

async function api(base: string, method: string, p: string, token: string, body?: unknown) {
  const r = await request(base + p, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? Buffer.from(JSON.stringify(body)) : undefined,
  });
  const json = r.body.length ? JSON.parse(r.body.toString()) : null;
  if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${r.body.toString().slice(0, 300)}`);
  return json;
}

/**
 * Streams a GET to nowhere; returns bytes and milliseconds. curl when installed (the same
 * client for us and for nginx, and not competing with a JS event loop), else Node's http.
 */
async function download(url: string, headers: Record<string, string> = {}): Promise<{ bytes: number; ms: number; ttfbMs: number }> {
  if (hasCommand('curl')) {
    const r = spawnSync(
      'curl',
      ['-s', '-o', '/dev/null', '-w', '%{http_code} %{size_download} %{time_starttransfer} %{time_total}', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url],
      { encoding: 'utf8' },
    );
    const [code, bytes, ttfb, total] = r.stdout.trim().split(' ').map(Number);
    if (code !== 200 && code !== 206) throw new Error(`GET ${url}: ${code}`);
    return { bytes, ms: total * 1000, ttfbMs: ttfb * 1000 };
  }
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    http
      .get(url, { headers, agent: false }, (res) => {
        const ttfb = performance.now() - t0;
        if (res.statusCode !== 200 && res.statusCode !== 206) reject(new Error(`GET ${url}: ${res.statusCode}`));
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ bytes, ms: performance.now() - t0, ttfbMs: ttfb }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Peak resident memory of a process while fn runs, sampled every 20 ms from /proc. */
async function peakRss<T>(pid: number, fn: () => Promise<T>): Promise<{ result: T; peak: number }> {
  const read = () => {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  };
  let peak = read();
  const timer = setInterval(() => (peak = Math.max(peak, read())), 20);
  try {
    const result = await fn();
    return { result, peak: Math.max(peak, read()) };
  } finally {
    clearInterval(timer);
  }
}
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

/** A file of `size` random bytes (1 MiB pattern repeated: random enough, fast to make). */
async function makeFile(file: string, size: number) {
  const block = randomBytes(MiB);
  const out = createWriteStream(file);
  for (let done = 0; done < size; done += MiB) {
    const piece = done + MiB <= size ? block : block.subarray(0, size - done);
    if (!out.write(piece)) await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((r, j) => out.end((e?: Error) => (e ? j(e) : r())));
}

function wrk(url: string): { rps: number; p99ms: number } | null {
  const r = spawnSync('wrk', ['-t2', '-c32', `-d${WRK_SECONDS}s`, '--latency', url], { encoding: 'utf8' });
  if (r.status !== 0) return null;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(r.stdout)?.[1] ?? 0);
  const m = /99%\s+([\d.]+)(us|ms|s)/.exec(r.stdout);
  const p99 = m ? Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) : 0;
  return { rps, p99ms: p99 };
}
const hasCommand = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd} || test -x /usr/sbin/${cmd}`]).status === 0;

async function startNginx(root: string): Promise<{ url: string; prefix: string; stop: () => void } | null> {
  const bin = hasCommand('nginx') ? (spawnSync('sh', ['-c', 'command -v nginx || echo /usr/sbin/nginx'], { encoding: 'utf8' }).stdout.trim()) : null;
  if (!bin) return null;
  const port = await freePort();
  const prefix = tempDir('htmls-bench-nginx-');
  mkdirSync(path.join(prefix, 'logs'), { recursive: true });
  const conf = path.join(prefix, 'nginx.conf');
  writeFileSync(
    conf,
    `${process.getuid?.() === 0 ? 'user root;' : ''} worker_processes 2; daemon off; pid ${prefix}/nginx.pid; error_log ${prefix}/logs/error.log;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000;
  types { text/html html; text/javascript js; application/octet-stream bin; }
  server { listen 127.0.0.1:${port}; root ${root}; } }`,
  );
  const proc = spawn(bin, ['-c', conf, '-p', prefix], { stdio: 'ignore' });
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 100));
    if ((await request(`http://127.0.0.1:${port}/`).catch(() => null)) !== null) break;
  }
  return { url: `http://127.0.0.1:${port}`, prefix, stop: () => proc.kill('SIGTERM') };
}

// ---------------------------------------------------------------- seeding

/** Writes PROJECTS projects with one online file each straight into the database. */
async function seedDirectory(env: Record<string, string | undefined>, dataDir: string) {
  const dbh = await createDb({ url: env.DATABASE_URL, dataDir });
  await applyMigrations(dbh, env.DATABASE_URL);
  for (let i = 0; i < PROJECTS; i += 1000) {
    const batch = Array.from({ length: Math.min(1000, PROJECTS - i) }, (_, k) => `bench-${String(i + k).padStart(6, '0')}`);
    await dbh.db.insert(projects).values(batch.map((slug) => ({ slug, note: `Seeded project ${slug}` })));
    await dbh.db.insert(hostedFiles).values(
      batch.map((slug) => ({ slug, path: 'index.html', storageKey: `files/${slug}/seed/index.html`, size: 5, contentType: 'text/html; charset=utf-8', etag: '"seed"' })),
    );
  }
  await dbh.close();
}

// ---------------------------------------------------------------- the run

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
  const server: RunningServer = await startServer({ ...env, DATA_DIR: dataDir });
  const base = server.url;
  const pid = server.proc.pid!;
  const store: StorageDriver =
    env.STORAGE === 's3'
      ? createS3Storage({
          endpoint: env.S3_ENDPOINT,
          region: env.S3_REGION ?? 'us-east-1',
          bucket: env.S3_BUCKET!,
          accessKeyId: env.S3_ACCESS_KEY_ID,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY,
          forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
          setCors: false,
        })
      : createFsStorage(path.join(dataDir, 'store'));
  const work = tempDir('htmls-bench-files-');
  let nginx: Awaited<ReturnType<typeof startNginx>> = null;
  try {
    const admin = TEST_ADMIN_TOKEN;
    await api(base, 'POST', '/api/users', admin, { username: 'bench', password: 'bench-password', quota_bytes: 2 ** 50 });
    const member = (await api(base, 'POST', '/api/auth/login', admin, { username: 'bench', password: 'bench-password' })).token as string;

    // Hosted pages: 5 KB HTML and a 100 KB asset, against nginx serving the same bytes.
    const html = Buffer.from(`<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"><base target="_blank"><title>bench</title></head><body>${'<p>htmls bench page</p>'.repeat(220)}</body></html>`).subarray(0, 5 * 1024);
    const asset = randomBytes(100 * 1024).toString('base64').slice(0, 100 * 1024);
    const form = new FormData();
    form.append('slug', 'bench-site');
    form.append('f', new Blob([html]), 'index.html');
    form.append('f', new Blob([asset]), 'app.js');
    const up = await fetch(`${base}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${admin}` }, body: form });
    if (up.status !== 201) throw new Error(`hosted upload: ${up.status} ${await up.text()}`);
    const site = path.join(work, 'site');
    mkdirSync(site);
    writeFileSync(path.join(site, 'index.html'), html);
    writeFileSync(path.join(site, 'app.js'), asset);
    const shareFile = path.join(work, 'share.bin');
    writeFileSync(path.join(site, 'placeholder'), '');
    await makeFile(shareFile, SIZE);
    // nginx serves the share file from the same directory tree.
    spawnSync('ln', ['-s', shareFile, path.join(site, 'share.bin')]);
    nginx = hasCommand('wrk') ? await startNginx(site) : null;
    if (!hasCommand('wrk')) log('wrk is not installed: skipping requests/s figures (apt-get install wrk)');
    for (const [label, p, ng] of [
      ['hosted 5 KB HTML', '/p/bench-site/index.html', '/index.html'],
      ['hosted 100 KB asset', '/p/bench-site/app.js', '/app.js'],
    ] as const) {
      if (!hasCommand('wrk')) break;
      const ours = Array.from({ length: RUNS }, () => wrk(base + p)!);
      const theirs = nginx ? Array.from({ length: RUNS }, () => wrk(nginx!.url + ng)!) : null;
      const rps = median(ours.map((r) => r.rps));
      const nrps = theirs ? median(theirs.map((r) => r.rps)) : null;
      addRow(`${label} requests/s`, rps, 'req/s', nrps, 'nginx', { min: 0.3, text: 'goal ≥ 0.3× nginx' });
      addRow(`${label} p99 latency`, median(ours.map((r) => r.p99ms)), 'ms', theirs ? median(theirs.map((r) => r.p99ms)) : null, 'nginx', undefined, false);
    }

    // Proxy upload through /api/shares/upload/chunk vs the same parts written to the store.
    const idle = rssOf(pid);
    /** One share upload: parts through /chunk (proxy), or presigned and PUT to the bucket (direct). */
    const uploadOnce = async (file: string, size: number, via: 'proxy' | 'direct' = 'proxy') => {
      const init = await api(base, 'POST', '/api/shares/upload/init', member, { files: [{ clientPath: 'bench.bin', size }] });
      const f = init.files[0];
      const part = init.partSize as number;
      const t0 = performance.now();
      const parts = [];
      for (let n = 1; n <= f.partCount; n++) {
        const start = (n - 1) * part;
        const end = Math.min(size, n * part) - 1;
        const ref = { groupId: init.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: n };
        const body = createReadStream(file, { start, end, highWaterMark: MiB });
        if (via === 'direct') {
          const signed = await api(base, 'POST', '/api/shares/upload/part-url', member, ref);
          const r = await request(signed.url, { method: 'PUT', headers: { ...(signed.headers ?? {}), 'Content-Length': String(end - start + 1) }, body });
          if (r.status !== 200) throw new Error(`direct PUT: ${r.status} ${r.body}`);
          parts.push({ partNumber: n, etag: String(r.headers.etag) });
          continue;
        }
        const q = new URLSearchParams({ ...ref, partNumber: String(n) });
        const r = await request(`${base}/api/shares/upload/chunk?${q}`, {
          method: 'PUT',
          headers: { Authorization: `Bearer ${member}`, 'Content-Length': String(end - start + 1) },
          body,
        });
        if (r.status !== 200) throw new Error(`chunk: ${r.status} ${r.body}`);
        parts.push({ partNumber: n, etag: JSON.parse(r.body.toString()).etag });
      }
      const done = await api(base, 'POST', '/api/shares/upload/complete', member, {
        groupId: init.groupId,
        files: [{ uploadId: f.uploadId, storageKey: f.storageKey, parts }],
      });
      return { ms: performance.now() - t0, share: done.share };
    };
    /** The same parts written to the same store by the driver itself: the baseline. */
    const rawOnce = async (file: string, size: number, part: number) => {
      const key = `bench/raw-${randomBytes(4).toString('hex')}`;
      const t0 = performance.now();
      const uploadId = await store.createMultipart(key);
      const parts = [];
      for (let n = 1; (n - 1) * part < Math.max(size, 1); n++) {
        const start = (n - 1) * part;
        const end = Math.min(size, n * part) - 1;
        const { etag } = await store.uploadPart(key, uploadId, n, createReadStream(file, { start, end, highWaterMark: MiB }), end - start + 1);
        parts.push({ partNumber: n, etag });
      }
      await store.completeMultipart(key, uploadId, parts);
      const ms = performance.now() - t0;
      await store.delete(key);
      return ms;
    };
    const caps = await api(base, 'GET', '/api/shares/upload/capabilities', member);
    // Runs alternate between ours and the baseline, so neither gets a warmer page cache.
    log('uploads…');
    const upTimes: number[] = [];
    const rawTimes: number[] = [];
    let share: { id: string; items: { url: string }[] } | null = null;
    for (let i = 0; i < RUNS; i++) {
      const r = await uploadOnce(shareFile, SIZE);
      upTimes.push(r.ms);
      if (share) await api(base, 'DELETE', `/api/shares/${share.id}`, member);
      share = r.share;
      rawTimes.push(await rawOnce(shareFile, SIZE, caps.partSize));
    }
    addRow(`${SIZE / MiB} MiB proxy upload`, mbps(SIZE, median(upTimes)), 'MiB/s', mbps(SIZE, median(rawTimes)), `raw write to ${env.STORAGE ?? 'fs'} store`, { min: 0.8, text: 'goal ≥ 0.8× raw' });

    if (caps.mode === 'direct') {
      const direct: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const r = await uploadOnce(shareFile, SIZE, 'direct');
        direct.push(r.ms);
        await api(base, 'DELETE', `/api/shares/${r.share.id}`, member);
      }
      addRow(`${SIZE / MiB} MiB direct-mode upload`, mbps(SIZE, median(direct)), 'MiB/s', mbps(SIZE, median(rawTimes)), 'same parts PUT to S3 by the driver');
    }

    // Downloads through /f/ vs a direct store read and nginx, after one untimed read each.
    log('downloads…');
    const url = base + share!.items[0].url;
    const readStore = async () => {
      const t0 = performance.now();
      const { body } = await store.get(`shared/${share!.id}/bench.bin`);
      let bytes = 0;
      for await (const c of body) bytes += (c as Buffer).length;
      return { bytes, ms: performance.now() - t0 };
    };
    await download(url);
    await readStore();
    if (nginx) await download(`${nginx.url}/share.bin`);
    const ours = [];
    const direct = [];
    const ng = [];
    for (let i = 0; i < RUNS; i++) {
      ours.push(await download(url));
      direct.push(await readStore());
      if (nginx) ng.push(await download(`${nginx.url}/share.bin`));
    }
    if ([...ours, ...direct, ...ng].some((r) => r.bytes !== SIZE)) throw new Error('a download came back short');
    const dl = mbps(SIZE, median(ours.map((r) => r.ms)));
    addRow(`${SIZE / MiB} MiB share download`, dl, 'MiB/s', mbps(SIZE, median(direct.map((r) => r.ms))), 'direct store read', { min: 0.9, text: 'goal ≥ 0.9× direct' });
    if (nginx) {
      addRow(`${SIZE / MiB} MiB share download`, dl, 'MiB/s', mbps(SIZE, median(ng.map((r) => r.ms))), 'nginx', env.STORAGE === 's3' ? undefined : { min: 0.4, text: 'goal ≥ 0.4× nginx' });
    }

    // Range time to first byte: random 64 KB windows, as a video player seeks.
    const ttfb: number[] = [];
    for (let i = 0; i < (quick ? 60 : 300); i++) {
      const start = Math.floor(Math.random() * Math.max(1, SIZE - 65536));
      const r = await download(url, { Range: `bytes=${start}-${start + 65535}` });
      ttfb.push(r.ttfbMs);
    }
    addRow('Range time to first byte p50', pct(ttfb, 50), 'ms', null, '', undefined, false);
    addRow('Range time to first byte p99', pct(ttfb, 99), 'ms', null, '', undefined, false);

    // The public directory with PROJECTS projects.
    const dir: number[] = [];
    for (let i = 0; i < (quick ? 60 : 200); i++) {
      const t0 = performance.now();
      const r = await request(`${base}/?page=${1 + (i % 20)}`);
      if (r.status !== 200) throw new Error(`directory: ${r.status}`);
      dir.push(performance.now() - t0);
    }
    addRow(`/ directory p95 (${fmt(PROJECTS)} projects)`, pct(dir, 95), 'ms', null, '', { max: 50, text: 'goal < 50 ms' }, false);

    // Peak RSS during a large proxy upload (last: it churns the page cache).
    const rssFile = RSS_SIZE === SIZE ? shareFile : path.join(work, 'rss.bin');
    if (rssFile !== shareFile) await makeFile(rssFile, RSS_SIZE);
    const { peak, result } = await peakRss(pid, () => uploadOnce(rssFile, RSS_SIZE));
    await api(base, 'DELETE', `/api/shares/${result.share.id}`, member);
    addRow(`server RSS growth during ${RSS_SIZE / MiB} MiB upload`, (peak - idle) / MiB, 'MiB', null, '', { max: 150, text: 'goal ≤ idle + 150 MiB' }, false);
    rows[rows.length - 1].baseline = `idle ${fmt(idle / MiB)} MiB, peak ${fmt(peak / MiB)} MiB`;
  } finally {
    nginx?.stop();
    await server.stop();
    store.close?.();
    // Gigabytes of test files and objects: never leave them behind.
    for (const dir of [work, dataDir, nginx?.prefix]) if (dir) rmSync(dir, { recursive: true, force: true });
  }

  const cols = ['metric', 'value', 'baseline', 'ratio', 'goal'] as const;
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(line([...cols]));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(cols.map((c) => r[c])));
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error('bench failed:', e);
    process.exit(1);
  },
);
