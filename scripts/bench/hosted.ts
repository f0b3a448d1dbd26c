/**
 * Hosted pages: a 5 KB HTML page and a 100 KB asset on the hosted origin, requests/s and p99
 * against nginx serving the same bytes, compression negotiated on both sides (we send the
 * Brotli copy made at upload, nginx its gzip_static copy).
 *
 * Beside them, measured by the same wrk in the same run: a bare Node `http.createServer`
 * answering the very bytes and headers our server sent (ETag, Cache-Control, Vary,
 * Content-Encoding, the security headers) from memory — the ceiling of a Node process here, the
 * reference of the ≥ 0.8× goal — and the same page of a password-protected project with a valid
 * unlock cookie (≥ 0.9× the open one). Issue 43: the same page of a project with 2,000
 * `_redirects` rules and 100 `_headers` blocks (≤ 1.1× the cost of one without), and the open
 * project's page on its custom domain (its Host on the hosted port) beside the hosted origin.
 *
 * Issue 44: the same open and locked pages from a second server started with HOSTED_FRONT=off
 * (its hosted port served by the main thread, beside Next, instead of the front worker), in the
 * same rounds, against the front worker, bare Node and nginx: the rows that decide whether the
 * worker is still worth its code (docs/performance.md). `--only hosted-main` runs just those
 * rows and the ones they are compared with.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { addRow, hasCommand, log, median, request, RUNS, startBareServer, wrk, type BenchContext } from './common';

const ACCEPT = { 'Accept-Encoding': 'gzip, deflate, br' };
const BENCH_DOMAIN = 'bench-site.bench.example';
const PAGES = [
  ['hosted 5 KB HTML', '/', '/index.html'],
  ['hosted 100 KB asset', '/app.js', '/app.js'],
] as const;

/**
 * The reference: per request, match the path and Accept-Encoding, honour If-None-Match, write
 * the prepared headers and body. `replies` is a JSON file of {path: {br?, identity}}, each
 * {status, headers, body(base64)} as our server answered it.
 */
const BARE_SERVER = `
const http = require('http'), fs = require('fs');
const [file, port] = process.argv.slice(1);
const replies = JSON.parse(fs.readFileSync(file, 'utf8'));
for (const r of Object.values(replies)) for (const v of Object.values(r)) v.body = Buffer.from(v.body, 'base64');
http.createServer((req, res) => {
  const r = replies[req.url];
  if (!r) { res.writeHead(404); return res.end(); }
  const v = (req.headers['accept-encoding'] || '').includes('br') && r.br ? r.br : r.identity;
  if (req.headers['if-none-match'] === v.headers.etag) { res.writeHead(304, v.headers); return res.end(); }
  res.writeHead(200, v.headers);
  res.end(v.body);
}).listen(Number(port), '127.0.0.1', () => console.log('up'));`;

const HTML = Buffer.from(`<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"><base target="_blank"><title>bench</title></head><body>${'<p>htmls bench page</p>'.repeat(220)}</body></html>`).subarray(0, 5 * 1024);
/** Random per run, the same bytes on both servers and nginx. */
const ASSET = randomBytes(100 * 1024).toString('base64').slice(0, 100 * 1024);

/** The open and locked bench sites on the server at `base`. */
async function publishOpenAndLocked(base: string, admin: string): Promise<void> {
  for (const [slug, password] of [['bench-site', ''], ['bench-locked', 'bench-password']]) {
    const form = new FormData();
    form.append('slug', slug);
    if (password) form.append('password', password);
    form.append('f', new Blob([HTML]), 'index.html');
    form.append('f', new Blob([ASSET]), 'app.js');
    const up = await fetch(`${base}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${admin}` }, body: form });
    if (up.status !== 201) throw new Error(`hosted upload: ${up.status} ${await up.text()}`);
  }
}

/** The same open and locked sites on the HOSTED_FRONT=off server (ctx.mainThread). */
export async function seedMainThreadSite(ctx: BenchContext): Promise<void> {
  await publishOpenAndLocked(ctx.mainThread!.base, ctx.admin);
}

/** Publishes the bench sites (open and locked) and writes the same bytes (and gzip copies) where nginx serves them. */
export async function seedHostedSite(ctx: BenchContext): Promise<void> {
  const [html, asset] = [HTML, ASSET];
  await publishOpenAndLocked(ctx.base, ctx.admin);
  // The same site with the most rules a deploy may carry (rules apply where no file exists:
  // the bench paths are files) and 100 header blocks, one of them matching every path.
  const rules = new FormData();
  rules.append('slug', 'bench-rules');
  rules.append('f', new Blob([html]), 'index.html');
  rules.append('f', new Blob([asset]), 'app.js');
  rules.append('f', new Blob([Array.from({ length: 2000 }, (_, i) => `/old/${i}/:name/* /new/${i}/:name/:splat 301`).join('\n')]), '_redirects');
  rules.append('f', new Blob([[...Array.from({ length: 99 }, (_, i) => `/section-${i}/*\n  X-Bench-${i}: ${i}`), '/*\n  X-Frame-Options: DENY'].join('\n')]), '_headers');
  const up = await fetch(`${ctx.base}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${ctx.admin}` }, body: rules });
  if (up.status !== 201) throw new Error(`hosted upload (rules): ${up.status} ${await up.text()}`);
  const domain = await fetch(`${ctx.base}/api/projects/bench-site`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${ctx.admin}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ domains: [BENCH_DOMAIN] }),
  });
  if (domain.status !== 200) throw new Error(`custom domain: ${domain.status} ${await domain.text()}`);
  writeFileSync(path.join(ctx.site, 'index.html'), html);
  writeFileSync(path.join(ctx.site, 'app.js'), asset);
  writeFileSync(path.join(ctx.site, 'index.html.gz'), gzipSync(html, { level: 9 }));
  writeFileSync(path.join(ctx.site, 'app.js.gz'), gzipSync(asset, { level: 9 }));
}

/** Our replies to the bench requests, with and without Brotli, for the reference server. */
async function ourReplies(ctx: BenchContext): Promise<string> {
  const out: Record<string, Record<string, { headers: Record<string, string>; body: string }>> = {};
  for (const [, p] of PAGES) {
    out[p] = {};
    for (const [name, headers] of [['br', ACCEPT], ['identity', {}]] as const) {
      const r = await request(`${ctx.hosted}/p/bench-site${p}`, { headers });
      if (r.status !== 200) throw new Error(`GET /p/bench-site${p}: ${r.status}`);
      const kept: Record<string, string> = {};
      for (const [k, v] of Object.entries(r.headers)) if (typeof v === 'string' && k !== 'date' && k !== 'connection' && k !== 'keep-alive') kept[k] = v;
      out[p][name] = { headers: kept, body: r.body.toString('base64') };
    }
  }
  // The main-thread server must send the front's body and headers (its own ETag and
  // Last-Modified: another upload), or its rows compare other work.
  if (ctx.mainThread) {
    for (const [, p] of PAGES) {
      const r = await request(`${ctx.mainThread.hosted}/p/bench-site${p}`, { headers: ACCEPT });
      const front = out[p].br;
      const names = (h: Record<string, unknown>) => Object.keys(h).filter((k) => k in front.headers).sort().join();
      const same = r.status === 200 && r.body.toString('base64') === front.body && names(r.headers) === Object.keys(front.headers).sort().join() && r.headers['content-encoding'] === front.headers['content-encoding'];
      if (!same) throw new Error(`GET /p/bench-site${p} on the HOSTED_FRONT=off server: ${r.status}, not the front's reply`);
    }
  }
  const file = path.join(ctx.work, 'hosted-replies.json');
  writeFileSync(file, JSON.stringify(out));
  return file;
}

async function unlockCookie(hosted: string): Promise<string> {
  const r = await request(`${hosted}/p/bench-locked/unlock`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: Buffer.from(JSON.stringify({ password: 'bench-password' })),
  });
  const set = [r.headers['set-cookie'] ?? []].flat()[0];
  if (r.status !== 200 || !set) throw new Error(`unlock: ${r.status}`);
  return set.split(';')[0];
}

/**
 * `full`: every hosted row (the hosted section); else only the rows the main-thread comparison
 * needs (hosted-main): the front worker's open and locked pages, bare Node and nginx beside the
 * main thread's.
 */
export async function benchHosted(ctx: BenchContext, { full }: { full: boolean }): Promise<void> {
  if (!hasCommand('wrk')) {
    log('wrk is not installed: skipping requests/s figures (apt-get install wrk)');
    return;
  }
  log(full ? 'hosted pages…' : 'hosted pages, front worker and main thread…');
  const bare = await startBareServer(BARE_SERVER, [await ourReplies(ctx)]);
  const cookie = { ...ACCEPT, Cookie: await unlockCookie(ctx.hosted) };
  const main = ctx.mainThread;
  const mainCookie = main ? { ...ACCEPT, Cookie: await unlockCookie(main.hosted) } : null;
  try {
    for (const [label, p, ng] of PAGES) {
      // Interleaved, so a noisy spell on a shared machine hits every row alike.
      const ours: ReturnType<typeof wrk>[] = [];
      const theirs: ReturnType<typeof wrk>[] = [];
      const node: ReturnType<typeof wrk>[] = [];
      const locked: ReturnType<typeof wrk>[] = [];
      const ruled: ReturnType<typeof wrk>[] = [];
      const domain: ReturnType<typeof wrk>[] = [];
      const mainOpen: ReturnType<typeof wrk>[] = [];
      const mainLocked: ReturnType<typeof wrk>[] = [];
      for (let i = 0; i < RUNS; i++) {
        if (full) {
          ruled.push(wrk(`${ctx.hosted}/p/bench-rules${p}`, ACCEPT));
          domain.push(wrk(`${ctx.hosted}${p}`, { ...ACCEPT, Host: BENCH_DOMAIN }));
        }
        // The locked page right after the open one: the pair the locked row compares.
        ours.push(wrk(`${ctx.hosted}/p/bench-site${p}`, ACCEPT));
        locked.push(wrk(`${ctx.hosted}/p/bench-locked${p}`, cookie));
        // The same pair from the main thread, right after the front's: the pair the main-thread row compares.
        if (main) {
          mainOpen.push(wrk(`${main.hosted}/p/bench-site${p}`, ACCEPT));
          mainLocked.push(wrk(`${main.hosted}/p/bench-locked${p}`, mainCookie!));
        }
        if (ctx.nginx) theirs.push(wrk(ctx.nginx.url + ng, ACCEPT));
        node.push(wrk(bare.url + p, ACCEPT));
      }
      const rps = median(ours.map((r) => r!.rps));
      const nrps = theirs.length ? median(theirs.map((r) => r!.rps)) : null;
      const brps = median(node.map((r) => r!.rps));
      addRow(`${label} requests/s (compressed)`, rps, 'req/s', nrps, 'nginx', { min: 0.5, text: 'goal ≥ 0.5× nginx' });
      addRow(`${label} requests/s vs bare Node`, rps, 'req/s', brps, 'bare Node, same bytes and headers', { min: 0.8, text: 'goal ≥ 0.8× bare Node' });
      // The cost of the cookie check, not of the moment: the median of each round's pair
      // (locked / open, measured back to back), shown as the locked rate it implies.
      const pairs = median(locked.map((r, i) => r!.rps / ours[i]!.rps));
      addRow(`${label} locked (valid cookie) requests/s`, pairs * rps, 'req/s', rps, 'open project (median of paired rounds)', { min: 0.9, text: 'goal ≥ 0.9× open' });
      if (full) {
        const rulesPairs = median(ruled.map((r, i) => r!.rps / ours[i]!.rps));
        addRow(`${label} with 2,000 redirect rules and 100 header blocks requests/s`, rulesPairs * rps, 'req/s', rps, 'no rules (median of paired rounds)', { min: 1 / 1.1, text: 'goal ≥ 1/1.1× without' });
        const domainPairs = median(domain.map((r, i) => r!.rps / ours[i]!.rps));
        addRow(`${label} on a custom domain requests/s`, domainPairs * rps, 'req/s', rps, 'hosted origin (median of paired rounds)', { min: 1 / 1.1, text: 'goal ≥ 1/1.1× hosted origin' });
      }
      if (nrps) addRow(`${label} bare Node requests/s (reference)`, brps, 'req/s', nrps, 'nginx');
      const p99 = median(ours.map((r) => r!.p99ms));
      const np99 = theirs.length ? median(theirs.map((r) => r!.p99ms)) : null;
      addRow(`${label} p99 latency`, p99, 'ms', np99, 'nginx', { max: 2, text: 'goal ≤ 2× nginx' }, false);
      if (main) {
        // Without the front worker: the goals the hosted rows hold today, on the main thread's rate.
        const name = `${label}, main thread (no front worker)`;
        const mrps = median(mainOpen.map((r) => r!.rps));
        // Against the front: the median of each round's pair, as the locked row is.
        const vsFront = median(mainOpen.map((r, i) => r!.rps / ours[i]!.rps));
        addRow(`${name} requests/s vs front worker`, vsFront * rps, 'req/s', rps, 'front worker (median of paired rounds)', undefined, true, false);
        addRow(`${name} requests/s (compressed)`, mrps, 'req/s', nrps, 'nginx', { min: 0.5, text: 'goal ≥ 0.5× nginx' });
        addRow(`${name} requests/s vs bare Node`, mrps, 'req/s', brps, 'bare Node, same bytes and headers', { min: 0.8, text: 'goal ≥ 0.8× bare Node' });
        const mainPairs = median(mainLocked.map((r, i) => r!.rps / mainOpen[i]!.rps));
        addRow(`${name} locked (valid cookie) requests/s`, mainPairs * mrps, 'req/s', mrps, 'open project, main thread (median of paired rounds)', { min: 0.9, text: 'goal ≥ 0.9× open' });
        const mp99 = median(mainOpen.map((r) => r!.p99ms));
        addRow(`${name} p99 latency`, mp99, 'ms', np99, 'nginx', { max: 2, text: 'goal ≤ 2× nginx' }, false);
      }
    }
  } finally {
    bare.stop();
  }
}
