/** Share uploads: proxy (and direct) mode throughput, and the server's RSS during a big upload. */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { addRow, api, fmt, log, makeFile, mbps, median, MiB, peakRss, request, rows, RSS_SIZE, RUNS, SIZE, storageArg, type BenchContext } from './common';

export interface UploadedShare {
  id: string;
  items: { url: string }[];
}

/** One share upload: parts through /chunk (proxy), or presigned and PUT to the bucket (direct). */
export async function uploadOnce(ctx: BenchContext, file: string, size: number, via: 'proxy' | 'direct' = 'proxy') {
  const { base, member } = ctx;
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
  return { ms: performance.now() - t0, share: done.share as UploadedShare };
}

/** The same parts written to the same store by the driver itself. */
async function rawOnce(ctx: BenchContext, file: string, size: number, part: number) {
  const { store } = ctx;
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
}

/** Upload runs alternate with their baseline; returns the last share, kept for the downloads. */
export async function benchUploads(ctx: BenchContext): Promise<UploadedShare> {
  const { base, member, shareFile, env } = ctx;
  const caps = await api(base, 'GET', '/api/shares/upload/capabilities', member);
  log('uploads…');
  const upTimes: number[] = [];
  const rawTimes: number[] = [];
  let share: UploadedShare | null = null;
  for (let i = 0; i < RUNS; i++) {
    const r = await uploadOnce(ctx, shareFile, SIZE);
    upTimes.push(r.ms);
    if (share) await api(base, 'DELETE', `/api/shares/${share.id}`, member);
    share = r.share;
    rawTimes.push(await rawOnce(ctx, shareFile, SIZE, caps.partSize));
  }
  addRow(`${SIZE / MiB} MiB proxy upload`, mbps(SIZE, median(upTimes)), 'MiB/s', mbps(SIZE, median(rawTimes)), `raw write to ${env.STORAGE ?? 'fs'} store`, { min: 0.8, text: 'goal ≥ 0.8× raw' });

  if (caps.mode === 'direct') {
    const direct: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await uploadOnce(ctx, shareFile, SIZE, 'direct');
      direct.push(r.ms);
      await api(base, 'DELETE', `/api/shares/${r.share.id}`, member);
    }
    addRow(`${SIZE / MiB} MiB direct-mode upload`, mbps(SIZE, median(direct)), 'MiB/s', mbps(SIZE, median(rawTimes)), 'same parts PUT to S3 by the driver');
  } else if (storageArg === 's3') {
    log('no direct-mode row: the server keeps uploads in proxy mode on this store (see its log: the presigned-copy probe)');
  }
  return share!;
}

/** Peak RSS during a large proxy upload. Run it last: it churns the page cache. */
export async function benchUploadRss(ctx: BenchContext): Promise<void> {
  const { base, member, pid, idle, shareFile, work } = ctx;
  const rssFile = RSS_SIZE === SIZE ? shareFile : path.join(work, 'rss.bin');
  if (rssFile !== shareFile) await makeFile(rssFile, RSS_SIZE);
  const { peak, result } = await peakRss(pid, () => uploadOnce(ctx, rssFile, RSS_SIZE));
  await api(base, 'DELETE', `/api/shares/${result.share.id}`, member);
  addRow(`server RSS growth during ${RSS_SIZE / MiB} MiB upload`, (peak - idle) / MiB, 'MiB', null, '', { max: 150, text: 'goal ≤ idle + 150 MiB' }, false);
  rows[rows.length - 1].baseline = `idle ${fmt(idle / MiB)} MiB, peak ${fmt(peak / MiB)} MiB`;
}
