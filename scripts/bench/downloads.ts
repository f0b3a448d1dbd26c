/**
 * Share downloads through /f/ against nginx serving the same file (fs; and s3) and the same
 * client's GET of the same object straight from the S3 server by a presigned URL (s3), and Range
 * time to first byte against nginx's on the same file, the same random windows, interleaved.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3FromEnv } from '../../tests/support/env';
import { s3Client } from '../../tests/support/services';
import { addRow, download, log, mbps, median, pct, quick, RUNS, SIZE, MiB, type BenchContext } from './common';
import type { UploadedShare } from './uploads';

export async function benchDownloads(ctx: BenchContext, share: UploadedShare): Promise<void> {
  const { base, nginx, env } = ctx;
  log('downloads…');
  const url = base + share.items[0].url;
  // The plain ways to move the same bytes: nginx serving the same file (fs), and on s3 the same
  // client (curl) fetching the object straight from the S3 server by a presigned URL — the
  // whole download minus our server. (On fs a read through our own store driver would be our
  // code path, not a baseline.)
  const s3 = env.STORAGE === 's3';
  let directUrl = '';
  if (s3) {
    const client = s3Client(s3FromEnv()!);
    directUrl = await getSignedUrl(client, new GetObjectCommand({ Bucket: env.S3_BUCKET!, Key: `shared/${share.id}/bench.bin` }), { expiresIn: 3600 });
    client.destroy();
  }
  const readS3 = () => download(directUrl);
  // One untimed read each first, so the page cache favours none of them.
  await download(url);
  if (s3) await readS3();
  if (nginx) await download(`${nginx.url}/share.bin`);
  const ours = [];
  const direct = [];
  const ng = [];
  for (let i = 0; i < RUNS; i++) {
    ours.push(await download(url));
    if (s3) direct.push(await readS3());
    if (nginx) ng.push(await download(`${nginx.url}/share.bin`));
  }
  if ([...ours, ...direct, ...ng].some((r) => r.bytes !== SIZE)) throw new Error('a download came back short');
  const dl = mbps(SIZE, median(ours.map((r) => r.ms)));
  if (s3) addRow(`${SIZE / MiB} MiB share download`, dl, 'MiB/s', mbps(SIZE, median(direct.map((r) => r.ms))), 'the same GET straight from S3, presigned', { min: 0.9, text: 'goal ≥ 0.9× direct' });
  if (nginx) {
    addRow(`${SIZE / MiB} MiB share download`, dl, 'MiB/s', mbps(SIZE, median(ng.map((r) => r.ms))), 'nginx, same file', s3 ? undefined : { min: 0.8, text: 'goal ≥ 0.8× nginx' });
  } else if (!s3) {
    addRow(`${SIZE / MiB} MiB share download`, dl, 'MiB/s', null, 'no nginx installed: no baseline');
  }

  // Range time to first byte: random 64 KB windows, as a video player seeks; nginx gets the
  // same windows right after ours, so load from elsewhere hits both alike.
  const ttfb: number[] = [];
  const ngTtfb: number[] = [];
  for (let i = 0; i < (quick ? 60 : 300); i++) {
    const start = Math.floor(Math.random() * Math.max(1, SIZE - 65536));
    const range = { Range: `bytes=${start}-${start + 65535}` };
    ttfb.push((await download(url, range)).ttfbMs);
    if (nginx) ngTtfb.push((await download(`${nginx.url}/share.bin`, range)).ttfbMs);
  }
  for (const p of [50, 99]) {
    const base = nginx ? pct(ngTtfb, p) : null;
    const goal = p === 99 && nginx && !s3 ? { max: 3, text: 'goal ≤ 3× nginx' } : undefined;
    addRow(`Range time to first byte p${p}`, pct(ttfb, p), 'ms', base, 'nginx, same file', goal, false);
  }
}
