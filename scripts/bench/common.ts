/**
 * What every bench section shares: command-line options, the result table, HTTP helpers,
 * wrk, nginx and RSS sampling. Sections (hosted.ts, uploads.ts, downloads.ts, zip-downloads.ts,
 * directory.ts)
 * add rows through addRow(); scripts/bench.ts runs them in order and prints the table.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { freePort, tempDir } from '../../tests/support/server';

export const MiB = 1024 * 1024;
export const args = process.argv.slice(2);
export const flag = (name: string) => args.includes(`--${name}`);
export const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
export const quick = flag('quick');
/** `--storage fs|s3` runs one pass; without it, fs and then s3 when an S3 server is configured. */
export const storageArg = args.includes('--storage') ? args[args.indexOf('--storage') + 1] : null;
export const SIZE = option('size', quick ? 64 : 1024) * MiB;
export const RSS_SIZE = option('rss-size', quick ? 256 : 10 * 1024) * MiB;
export const RUNS = Math.max(1, option('runs', 3));
export const WRK_SECONDS = quick ? 2 : 5;
export const PROJECTS = option('projects', quick ? 1000 : 10_000);

export interface Row {
  metric: string;
  value: string;
  baseline: string;
  ratio: string;
  goal: string;
}
export const rows: Row[] = [];
export const log = (s: string) => process.stderr.write(`${s}\n`);
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
export const mbps = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);
export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** A goal is on the ratio to the baseline (`×` in its text) or on the value itself. */
export function addRow(
  metric: string,
  value: number,
  unit: string,
  baseline: number | null,
  baseLabel: string,
  goal?: { min?: number; max?: number; text: string },
  higherIsBetter = true,
  /** false: the baseline is another way of ours, not the plain way (no "wrong baseline?" flag). */
  flagAhead = higherIsBetter,
) {
  const ratio = baseline ? value / baseline : null;
  let met = '';
  if (goal) {
    const x = goal.text.includes('×') ? (ratio ?? 0) : value;
    const ok = (goal.min === undefined || x >= goal.min) && (goal.max === undefined || x <= goal.max);
    met = `${goal.text}: ${ok ? 'met' : 'NOT met'}`;
  }
  // A baseline is the fastest plain way to do the job: beating it by more than noise means it is not.
  const ahead = ratio;
  if (flagAhead && ahead !== null && ahead > 1.05) met = `${met ? `${met}; ` : ''}ratio > 1.05: wrong baseline?`;
  rows.push({
    metric,
    value: `${fmt(value, value < 100 ? 1 : 0)} ${unit}`,
    baseline: baseline === null ? '—' : `${fmt(baseline, baseline < 100 ? 1 : 0)} ${unit} (${baseLabel})`,
    ratio: ratio === null ? '—' : `${fmt(ratio, 2)}×${higherIsBetter ? '' : ' (lower is better)'}`,
    goal: met,
  });
}

export function request(url: string, opts: http.RequestOptions & { body?: Buffer | Readable } = {}): Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }> {
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

export async function api(base: string, method: string, p: string, token: string, body?: unknown) {
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
export async function download(url: string, headers: Record<string, string> = {}): Promise<{ bytes: number; ms: number; ttfbMs: number }> {
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
export async function peakRss<T>(pid: number, fn: () => Promise<T>): Promise<{ result: T; peak: number }> {
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
export const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

/**
 * A bare Node server for a baseline or a reference row: `script` (CommonJS, run with `node -e`)
 * gets `args` and then a free port, and prints a line once it listens. A child process, like our
 * server.
 */
export async function startBareServer(script: string, args: string[]): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['-e', script, ...args, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((r) => proc.stdout!.once('data', r));
  return { url: `http://127.0.0.1:${port}`, stop: () => void proc.kill() };
}

/** A file of `size` random bytes (1 MiB pattern repeated: random enough, fast to make). */
export async function makeFile(file: string, size: number) {
  const block = randomBytes(MiB);
  const out = createWriteStream(file);
  for (let done = 0; done < size; done += MiB) {
    const piece = done + MiB <= size ? block : block.subarray(0, size - done);
    if (!out.write(piece)) await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((r, j) => out.end((e?: Error) => (e ? j(e) : r())));
}

export function wrk(url: string, headers: Record<string, string> = {}): { rps: number; p99ms: number } | null {
  const h = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const r = spawnSync('wrk', ['-t2', '-c32', `-d${WRK_SECONDS}s`, '--latency', ...h, url], { encoding: 'utf8' });
  if (r.status !== 0) return null;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(r.stdout)?.[1] ?? 0);
  const m = /99%\s+([\d.]+)(us|ms|s)/.exec(r.stdout);
  const p99 = m ? Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) : 0;
  return { rps, p99ms: p99 };
}
export const hasCommand = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd} || test -x /usr/sbin/${cmd}`]).status === 0;

export async function startNginx(root: string): Promise<{ url: string; prefix: string; stop: () => void } | null> {
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
  gzip on; gzip_static on; gzip_vary on; gzip_types text/javascript; gzip_min_length 256;
  server { listen 127.0.0.1:${port}; root ${root}; } }`,
  );
  const proc = spawn(bin, ['-c', conf, '-p', prefix], { stdio: 'ignore' });
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 100));
    if ((await request(`http://127.0.0.1:${port}/`).catch(() => null)) !== null) break;
  }
  return { url: `http://127.0.0.1:${port}`, prefix, stop: () => proc.kill('SIGTERM') };
}

/** What the driver hands every section: the running server, its store and test files. */
export interface BenchContext {
  base: string;
  /** The hosted origin (the server's second listener): where /p/ is served. */
  hosted: string;
  pid: number;
  env: Record<string, string | undefined>;
  /** A scratch folder removed at the end; nginx serves work/site. */
  work: string;
  site: string;
  nginx: { url: string; prefix: string; stop: () => void } | null;
  admin: string;
  member: string;
  /** SIZE random bytes, also reachable through nginx as /share.bin. */
  shareFile: string;
  /**
   * A second server on data of its own with HOSTED_FRONT=off: its hosted port served by the main
   * thread, not the front worker (issue 44). Started for the hosted and hosted-main sections.
   */
  mainThread: { base: string; hosted: string } | null;
  /** Idle RSS of the server: the lowest reading over a quiet spell after its last (re)start. */
  idle: number;
  /**
   * Restarts the server on the same data (base, hosted, pid and idle follow): a memory figure
   * starts from a settled server, not from what earlier sections' transfers left in its heap.
   * `extra`: settings for this start only (the redirect section's DOWNLOAD_MODE).
   */
  restart: (extra?: Record<string, string>) => Promise<void>;
}
