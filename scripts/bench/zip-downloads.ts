/**
 * "Download all" ZIPs: a share of 100 files (SIZE in all) as one ZIP against the single-file
 * download rate of the same bytes, and the server's memory while 20 ZIP downloads run at once.
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { addRow, api, download, fmt, log, mbps, median, MiB, peakRss, quick, request, rows, rssOf, RUNS, SIZE, type BenchContext } from './common';
import type { UploadedShare } from './uploads';

const FILES = 100;

/** A 100-file share cut from the bench file (each file one part, through /chunk). */
async function uploadHundred(ctx: BenchContext): Promise<{ id: string; bytes: number }> {
  const { base, member } = ctx;
  const each = Math.floor(SIZE / FILES);
  const files = Array.from({ length: FILES }, (_, i) => ({ clientPath: `set/${String(i).padStart(3, '0')}.bin`, size: each }));
  const init = await api(base, 'POST', '/api/shares/upload/init', member, { files });
  const done = [];
  for (const [i, f] of (init.files as { uploadId: string; storageKey: string; partCount: number }[]).entries()) {
    const parts = [];
    for (let n = 1; n <= f.partCount; n++) {
      const start = i * each + (n - 1) * init.partSize;
      const end = Math.min((i + 1) * each, start + init.partSize);
      const q = new URLSearchParams({ groupId: init.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: String(n) });
      const body = createReadStream(ctx.shareFile, { start, end: end - 1, highWaterMark: MiB });
      const r = await request(`${base}/api/shares/upload/chunk?${q}`, { method: 'PUT', headers: { Authorization: `Bearer ${member}`, 'Content-Length': String(end - start) }, body });
      if (r.status !== 200) throw new Error(`chunk: ${r.status} ${r.body}`);
      parts.push({ partNumber: n, etag: JSON.parse(r.body.toString()).etag });
    }
    done.push({ uploadId: f.uploadId, storageKey: f.storageKey, parts });
  }
  await api(base, 'POST', '/api/shares/upload/complete', member, { groupId: init.groupId, files: done });
  return { id: init.groupId, bytes: each * FILES };
}

/** Bytes one curl received from `url` in at most `seconds` (a download cut by the time is fine). */
const curlTo = (url: string, seconds: number) =>
  new Promise<number>((resolve, reject) => {
    const p = spawn('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code} %{size_download}', '--max-time', String(seconds), url], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    p.stdout.on('data', (c) => (out += c));
    p.on('close', () => {
      const [code, bytes] = out.trim().split(' ').map(Number);
      if (code !== 200) reject(new Error(`ZIP download: HTTP ${code}`));
      else resolve(bytes);
    });
    p.on('error', reject);
  });

export async function benchZipDownloads(ctx: BenchContext, single: UploadedShare): Promise<void> {
  log('ZIP downloads…');
  const { id, bytes } = await uploadHundred(ctx);
  const zipUrl = `${ctx.base}/f/${id}/?zip`;
  const fileUrl = ctx.base + single.items[0].url;
  // The first ZIP download, timed apart: parts sent through /chunk had their CRC-32s taken as
  // they arrived, so it reads nothing extra; a server that hashed files here would show it.
  const cold = await download(zipUrl);
  const zips = [];
  const files = [];
  for (let i = 0; i < RUNS; i++) {
    zips.push(await download(zipUrl));
    files.push(await download(fileUrl));
  }
  if (zips.some((r) => r.bytes < bytes) || files.some((r) => r.bytes !== SIZE)) throw new Error('a download came back short');
  const fileRate = mbps(SIZE, median(files.map((r) => r.ms)));
  addRow(`ZIP of ${SIZE / MiB} MiB, ${FILES} files`, mbps(cold.bytes, cold.ms), 'MiB/s', fileRate, 'our single-file download', { min: 0.7, text: 'first download, goal ≥ 0.7×' });
  addRow(`ZIP of ${SIZE / MiB} MiB, ${FILES} files`, mbps(zips[0].bytes, median(zips.map((r) => r.ms))), 'MiB/s', fileRate, 'our single-file download', { min: 0.7, text: 'goal ≥ 0.7× single file' });

  // 20 at once, at full speed (each stopped after a while on a big set), on a freshly started
  // and settled server: memory must stay within its idle figure + 100 MiB.
  await ctx.restart();
  const before = rssOf(ctx.pid);
  const url = `${ctx.base}/f/${id}/?zip`;
  const { peak, result } = await peakRss(ctx.pid, () => Promise.all(Array.from({ length: 20 }, () => curlTo(url, quick ? 5 : 20))));
  const received = result.reduce((a, b) => a + b, 0);
  // Each must have been streaming (how far it got in the time depends on the machine's speed).
  const stalled = result.filter((b) => b < Math.min(bytes, MiB)).length;
  if (stalled) throw new Error(`${stalled} of 20 ZIP downloads received under 1 MiB (${result.join(', ')} bytes)`);
  rows.push({
    metric: 'server RSS growth during 20 ZIP downloads',
    value: `${fmt((peak - ctx.idle) / MiB, 1)} MiB`,
    baseline: `peak ${fmt(peak / MiB)} MiB (idle ${fmt(ctx.idle / MiB)}, ${fmt(before / MiB)} just before; ${fmt(received / MiB)} MiB sent)`,
    ratio: '—',
    goal: `goal ≤ idle + 100 MiB: ${peak - ctx.idle <= 100 * MiB ? 'met' : 'NOT met'}`,
  });
}
