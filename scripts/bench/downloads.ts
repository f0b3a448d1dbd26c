/** Share downloads through /f/ against a direct store read and nginx, and Range TTFB. */
import { addRow, download, log, mbps, median, pct, quick, RUNS, SIZE, MiB, type BenchContext } from './common';
import type { UploadedShare } from './uploads';

export async function benchDownloads(ctx: BenchContext, share: UploadedShare): Promise<void> {
  const { base, store, nginx, env } = ctx;
  log('downloads…');
  const url = base + share.items[0].url;
  const readStore = async () => {
    const t0 = performance.now();
    const { body } = await store.get(`shared/${share.id}/bench.bin`);
    let bytes = 0;
    for await (const c of body) bytes += (c as Buffer).length;
    return { bytes, ms: performance.now() - t0 };
  };
  // One untimed read each first, so the page cache favours none of them.
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
}
