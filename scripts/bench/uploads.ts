/**
 * Share uploads: proxy and direct mode against the plain ways to move the same bytes
 * (upload-baselines.ts), init + complete of a 500-file share, and the server's memory: idle,
 * during one large proxy upload, and during 20 parallel 48 MB parts.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { addRow, api, fmt, log, makeFile, mbps, median, MiB, peakRss, quick, request, rows, RSS_SIZE, rssOf, RUNS, SIZE, type BenchContext } from './common';
import { bareNodeBaseline, eachPart, partsOf, putParts, sdkBaseline, type Baseline } from './upload-baselines';

export interface UploadedShare {
  id: string;
  items: { url: string }[];
}

interface InitFile {
  uploadId: string;
  storageKey: string;
  partCount: number;
}

/**
 * One share upload: parts through /chunk (proxy), or presigned and PUT to the bucket (direct),
 * by the same upload client as the baselines (put-parts.mjs, in its own process). Direct mode's
 * part-url calls are timed too.
 */
export async function uploadOnce(ctx: BenchContext, file: string, size: number, via: 'proxy' | 'direct' = 'proxy', parallel = 1) {
  const { base, member } = ctx;
  const init = await api(base, 'POST', '/api/shares/upload/init', member, { files: [{ clientPath: 'bench.bin', size }] });
  const f = init.files[0] as InitFile;
  const t0 = performance.now();
  const parts = await Promise.all(
    partsOf(size, init.partSize).map(async (p) => {
      const ref = { groupId: init.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: p.n };
      if (via === 'direct') {
        const signed = await api(base, 'POST', '/api/shares/upload/part-url', member, ref);
        return { ...p, url: signed.url as string, headers: signed.headers ?? {} };
      }
      const q = new URLSearchParams({ ...ref, partNumber: String(p.n) });
      return { ...p, url: `${base}/api/shares/upload/chunk?${q}`, headers: { Authorization: `Bearer ${member}` } };
    }),
  );
  const signing = performance.now() - t0;
  const put = await putParts({ file, parallel, parts });
  const bad = put.results.find((r) => r.status !== 200);
  if (bad) throw new Error(`${via} part PUT: ${bad.status} ${bad.body}`);
  const t1 = performance.now();
  const done = await api(base, 'POST', '/api/shares/upload/complete', member, {
    groupId: init.groupId,
    files: [{ uploadId: f.uploadId, storageKey: f.storageKey, parts: put.results.map((r, i) => ({ partNumber: i + 1, etag: via === 'direct' ? String(r.etag) : JSON.parse(r.body).etag })) }],
  });
  return { ms: (via === 'direct' ? signing : 0) + put.ms + (performance.now() - t1), share: done.share as UploadedShare };
}

/**
 * Both sides start from the same state of memory: before each run the previous side's bytes are
 * deleted, dirty pages flushed (`sync`), and the bench waits a few seconds. Measured with the bare
 * server alone, one run after another: a run that writes while the previous run's gigabyte is
 * still in the page cache took 298–381 MiB/s, one after that gigabyte was deleted 915–948. (The
 * bench used to delete a pair's outputs together, so whichever side ran second was slow, and the
 * medians measured the order.) Waiting matters too: this VM hands freed pages back to its host
 * after a second or two, and whoever writes next into them pays a host fault per page.
 */
const SETTLE_MS = 4000;

export async function quietDisk(): Promise<void> {
  execFileSync('sync');
  await new Promise((r) => setTimeout(r, SETTLE_MS));
}

async function versus(ctx: BenchContext, baseline: Baseline, via: 'proxy' | 'direct', partSize: number, parallel: number) {
  const ours: number[] = [];
  const theirs: number[] = [];
  const runOurs = async () => {
    await quietDisk();
    // Proxy mode as a client sees it: one process runs init, every part and complete on its
    // keep-alive connection, the clock around all of it (as the baseline's clock is around its PUTs).
    const r =
      via === 'proxy'
        ? await putParts({ file: ctx.shareFile, parallel, share: { base: ctx.base, token: ctx.member, size: SIZE } }).then((x) => ({ ms: x.ms, share: x.share! }))
        : await uploadOnce(ctx, ctx.shareFile, SIZE, via, parallel);
    ours.push(r.ms);
    await api(ctx.base, 'DELETE', `/api/shares/${r.share.id}`, ctx.member);
  };
  const runTheirs = async () => {
    await quietDisk();
    const r = await baseline.upload(ctx.shareFile, SIZE, partSize, parallel);
    theirs.push(r.ms);
    await r.cleanup();
  };
  for (let i = 0; i < RUNS; i++) {
    if (i % 2 === 0) {
      await runOurs();
      await runTheirs();
    } else {
      await runTheirs();
      await runOurs();
    }
  }
  const each = (ms: number[]) => ms.map((m) => mbps(SIZE, m).toFixed(0)).join(', ');
  log(`  ${via}: ours ${each(ours)} MiB/s; baseline ${each(theirs)} MiB/s (run by run)`);
  return { ours: mbps(SIZE, median(ours)), theirs: mbps(SIZE, median(theirs)) };
}

export async function benchUploads(ctx: BenchContext): Promise<void> {
  const { base, member, env } = ctx;
  const s3 = env.STORAGE === 's3';
  const caps = await api(base, 'GET', '/api/shares/upload/capabilities', member);
  log('uploads…');
  const baseline = s3 ? sdkBaseline(env) : await bareNodeBaseline(ctx.work);
  try {
    // Parts through the server, one at a time, in the size the server gives (48 MB in proxy mode).
    const proxy = await versus(ctx, baseline, 'proxy', caps.partSize, 1);
    addRow(`${SIZE / MiB} MiB proxy upload`, proxy.ours, 'MiB/s', proxy.theirs, baseline.label, { min: 0.8, text: 'goal ≥ 0.8×' });
    if (caps.mode === 'direct') {
      const direct = await versus(ctx, baseline, 'direct', caps.partSize, caps.parallel);
      addRow(`${SIZE / MiB} MiB direct-mode upload`, direct.ours, 'MiB/s', direct.theirs, `${baseline.label}, ${caps.parallel} at a time`, { min: 0.95, text: 'goal ≥ 0.95×' });
    } else if (s3) {
      log('no direct-mode row: the server keeps uploads in proxy mode on this store (see its log: the presigned-copy probe)');
    }
  } finally {
    await baseline.stop();
  }
  await benchManyFiles(ctx, quick ? 100 : 500);
}

/** init + complete of a share of many small files (the parts in between are not timed). */
async function benchManyFiles(ctx: BenchContext, count: number): Promise<void> {
  const { base, member } = ctx;
  const body = Buffer.from('a small file');
  const files = Array.from({ length: count }, (_, i) => ({ clientPath: `many/f${String(i).padStart(4, '0')}.txt`, size: body.length }));
  const t0 = performance.now();
  const init = await api(base, 'POST', '/api/shares/upload/init', member, { files });
  const initMs = performance.now() - t0;
  const parts = new Map<string, string>();
  await eachPart(count, 1, 16, async (i) => {
    const f = init.files[i] as InitFile;
    const ref = { groupId: init.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 };
    if (init.mode === 'direct') {
      const signed = await api(base, 'POST', '/api/shares/upload/part-url', member, ref);
      const r = await request(signed.url, { method: 'PUT', headers: { ...(signed.headers ?? {}), 'Content-Length': String(body.length) }, body });
      parts.set(f.uploadId, String(r.headers.etag));
    } else {
      const r = await request(`${base}/api/shares/upload/chunk?${new URLSearchParams({ ...ref, partNumber: '1' })}`, { method: 'PUT', headers: { Authorization: `Bearer ${member}`, 'Content-Length': String(body.length) }, body });
      parts.set(f.uploadId, JSON.parse(r.body.toString()).etag);
    }
  });
  const t1 = performance.now();
  const done = await api(base, 'POST', '/api/shares/upload/complete', member, {
    groupId: init.groupId,
    files: (init.files as InitFile[]).map((f) => ({ uploadId: f.uploadId, storageKey: f.storageKey, parts: [{ partNumber: 1, etag: parts.get(f.uploadId) }] })),
  });
  const seconds = (initMs + performance.now() - t1) / 1000;
  await api(base, 'DELETE', `/api/shares/${done.share.id}`, member);
  addRow(`init + complete of a ${count}-file share`, seconds, 's', null, '', { max: 5, text: 'goal < 5 s' }, false);
}

/**
 * The server's memory on a restarted, settled server: idle, its peak during one large proxy upload, and
 * during 20 parts of 48 MB arriving at once. Run it last: it churns the page cache.
 */
export async function benchUploadRss(ctx: BenchContext): Promise<void> {
  // From a freshly started, settled server: not from the heap earlier sections' transfers left.
  await ctx.restart();
  const { base, member, pid, idle, shareFile, work, env } = ctx;
  const embedded = !env.DATABASE_URL && env.STORAGE !== 's3';
  addRow('server RSS at idle', idle / MiB, 'MiB', null, '', embedded ? { max: 350, text: 'goal ≤ 350 MiB (embedded default)' } : undefined, false);
  const rssFile = RSS_SIZE === SIZE ? shareFile : path.join(work, 'rss.bin');
  if (rssFile !== shareFile) await makeFile(rssFile, RSS_SIZE);
  const one = await peakRss(pid, () => uploadOnce(ctx, rssFile, RSS_SIZE));
  await api(base, 'DELETE', `/api/shares/${one.result.share.id}`, member);
  addRow(`server RSS growth during ${RSS_SIZE / MiB} MiB upload`, (one.peak - idle) / MiB, 'MiB', null, '', { max: 150, text: 'goal ≤ idle + 150 MiB' }, false);
  rows[rows.length - 1].baseline = `peak ${fmt(one.peak / MiB)} MiB`;

  // 20 parts of one file at once (48 MB each in proxy mode), all read from one part-sized file.
  const part = (await api(base, 'GET', '/api/shares/upload/capabilities', member)).partSize as number;
  const partFile = path.join(work, 'part.bin');
  await makeFile(partFile, part);
  const init = await api(base, 'POST', '/api/shares/upload/init', member, { files: [{ clientPath: 'parallel.bin', size: 20 * part }] });
  const f = init.files[0] as InitFile;
  const before = rssOf(pid);
  const many = await peakRss(pid, () =>
    eachPart(20 * part, part, 20, async (_s, _e, n) => {
      const q = new URLSearchParams({ groupId: init.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: String(n) });
      const r = await request(`${base}/api/shares/upload/chunk?${q}`, { method: 'PUT', headers: { Authorization: `Bearer ${member}`, 'Content-Length': String(part) }, body: createReadStream(partFile, { highWaterMark: MiB }) });
      if (r.status !== 200) throw new Error(`chunk: ${r.status} ${r.body}`);
    }),
  );
  await api(base, 'POST', '/api/shares/upload/abort', member, { groupId: init.groupId });
  addRow(`server RSS growth during 20 parallel ${part / MiB} MiB parts`, (many.peak - idle) / MiB, 'MiB', null, '', { max: 150, text: 'goal ≤ idle + 150 MiB' }, false);
  rows[rows.length - 1].baseline = `peak ${fmt(many.peak / MiB)} MiB (${fmt(before / MiB)} before)`;
}
