/**
 * Hosted pages: a 5 KB HTML page and a 100 KB asset on the hosted origin, requests/s and p99
 * against nginx serving the same bytes, compression negotiated on both sides (we send the
 * Brotli copy made at upload, nginx its gzip_static copy).
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { addRow, hasCommand, log, median, RUNS, wrk, type BenchContext } from './common';

const ACCEPT = { 'Accept-Encoding': 'gzip, deflate, br' };

/** Publishes the bench site and writes the same bytes (and gzip copies) where nginx serves them. */
export async function seedHostedSite(ctx: BenchContext): Promise<void> {
  const html = Buffer.from(`<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"><base target="_blank"><title>bench</title></head><body>${'<p>htmls bench page</p>'.repeat(220)}</body></html>`).subarray(0, 5 * 1024);
  const asset = randomBytes(100 * 1024).toString('base64').slice(0, 100 * 1024);
  const form = new FormData();
  form.append('slug', 'bench-site');
  form.append('f', new Blob([html]), 'index.html');
  form.append('f', new Blob([asset]), 'app.js');
  const up = await fetch(`${ctx.base}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${ctx.admin}` }, body: form });
  if (up.status !== 201) throw new Error(`hosted upload: ${up.status} ${await up.text()}`);
  writeFileSync(path.join(ctx.site, 'index.html'), html);
  writeFileSync(path.join(ctx.site, 'app.js'), asset);
  writeFileSync(path.join(ctx.site, 'index.html.gz'), gzipSync(html, { level: 9 }));
  writeFileSync(path.join(ctx.site, 'app.js.gz'), gzipSync(asset, { level: 9 }));
}

export async function benchHosted(ctx: BenchContext): Promise<void> {
  if (!hasCommand('wrk')) {
    log('wrk is not installed: skipping requests/s figures (apt-get install wrk)');
    return;
  }
  log('hosted pages…');
  for (const [label, p, ng] of [
    ['hosted 5 KB HTML', '/p/bench-site/index.html', '/index.html'],
    ['hosted 100 KB asset', '/p/bench-site/app.js', '/app.js'],
  ] as const) {
    const ours = Array.from({ length: RUNS }, () => wrk(ctx.hosted + p, ACCEPT)!);
    const theirs = ctx.nginx ? Array.from({ length: RUNS }, () => wrk(ctx.nginx!.url + ng, ACCEPT)!) : null;
    const rps = median(ours.map((r) => r.rps));
    const nrps = theirs ? median(theirs.map((r) => r.rps)) : null;
    addRow(`${label} requests/s (compressed)`, rps, 'req/s', nrps, 'nginx', { min: 0.5, text: 'goal ≥ 0.5× nginx' });
    const p99 = median(ours.map((r) => r.p99ms));
    const np99 = theirs ? median(theirs.map((r) => r.p99ms)) : null;
    addRow(`${label} p99 latency`, p99, 'ms', np99, 'nginx', { max: 2, text: 'goal ≤ 2× nginx' }, false);
  }
}
