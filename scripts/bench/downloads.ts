/**
 * Share downloads through /f/ against nginx serving the same file (fs; and s3) and the same
 * client's GET of the same object straight from the S3 server by a presigned URL (s3), and Range
 * time to first byte against nginx's on the same file, the same random windows, interleaved.
 *
 * Beside them, for reference (no goal, no ratio), the same jobs done by a bare Node server: it
 * shows how far nginx's and the S3 server's figures are within a Node process's reach here.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3FromEnv } from '../../tests/support/env';
import { s3Client } from '../../tests/support/services';
import { addRow, download, log, mbps, median, pct, quick, RUNS, SIZE, MiB, startBareServer, type BenchContext } from './common';
import type { UploadedShare } from './uploads';

/**
 * About fifteen lines of Node: GET /file streams the share file (one Range honoured) with 1 MiB
 * reads, GET /s3 relays the presigned GET of the same object.
 */
const BARE_SERVER = `
const http = require('http'), fs = require('fs');
const [file, size, s3url, port] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: true });
http.createServer((req, res) => {
  const m = /^bytes=(\\d+)-(\\d+)$/.exec(req.headers.range || '');
  const start = m ? Number(m[1]) : 0, end = m ? Number(m[2]) : Number(size) - 1;
  if (req.url === '/s3') return http.get(s3url, { agent, headers: m ? { range: req.headers.range } : {} }, (r) => {
    res.writeHead(r.statusCode, { 'content-length': r.headers['content-length'] }); r.pipe(res);
  });
  res.writeHead(m ? 206 : 200, { 'content-length': end - start + 1 });
  fs.createReadStream(file, { start, end, highWaterMark: 1048576 }).pipe(res);
}).listen(Number(port), '127.0.0.1', () => console.log('up'));`;

export async function benchDownloads(ctx: BenchContext, share: UploadedShare): Promise<void> {
  const { base, env } = ctx;
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
  const bare = await startBareServer(BARE_SERVER, [ctx.shareFile, String(SIZE), directUrl]);
  try {
    await downloadsAgainst(ctx, url, directUrl, `${bare.url}/${s3 ? 's3' : 'file'}`);
  } finally {
    bare.stop();
  }
}

/** directUrl: the presigned GET of the object on s3, '' on fs. */
async function downloadsAgainst(ctx: BenchContext, url: string, directUrl: string, bareUrl: string): Promise<void> {
  const { nginx } = ctx;
  const s3 = directUrl !== '';
  const readS3 = () => download(directUrl);
  // One untimed read each first, so the page cache favours none of them.
  await download(url);
  if (s3) await readS3();
  if (nginx) await download(`${nginx.url}/share.bin`);
  await download(bareUrl);
  const ours = [];
  const direct = [];
  const ng = [];
  const bare = [];
  for (let i = 0; i < RUNS; i++) {
    ours.push(await download(url));
    if (s3) direct.push(await readS3());
    if (nginx) ng.push(await download(`${nginx.url}/share.bin`));
    bare.push(await download(bareUrl));
  }
  if ([...ours, ...direct, ...ng, ...bare].some((r) => r.bytes !== SIZE)) throw new Error('a download came back short');
  const dl = mbps(SIZE, median(ours.map((r) => r.ms)));
  if (s3) addRow(`${SIZE / MiB} MiB share download`, dl, 'MiB/s', mbps(SIZE, median(direct.map((r) => r.ms))), 'the same GET straight from S3, presigned', { min: 0.9, text: 'goal ≥ 0.9× direct' });
  if (nginx) {
    addRow(`${SIZE / MiB} MiB share download`, dl, 'MiB/s', mbps(SIZE, median(ng.map((r) => r.ms))), 'nginx, same file', s3 ? undefined : { min: 0.8, text: 'goal ≥ 0.8× nginx' });
  } else if (!s3) {
    addRow(`${SIZE / MiB} MiB share download`, dl, 'MiB/s', null, 'no nginx installed: no baseline');
  }
  const bareLabel = s3 ? 'bare Node relaying the presigned GET' : 'bare Node piping the file';
  addRow(`${SIZE / MiB} MiB download: ${bareLabel} (reference)`, mbps(SIZE, median(bare.map((r) => r.ms))), 'MiB/s', null, '');

  // Range time to first byte: random 64 KB windows, as a video player seeks; nginx gets the
  // same windows right after ours, so load from elsewhere hits both alike.
  const ttfb: number[] = [];
  const ngTtfb: number[] = [];
  const bareTtfb: number[] = [];
  for (let i = 0; i < (quick ? 60 : 300); i++) {
    const start = Math.floor(Math.random() * Math.max(1, SIZE - 65536));
    const range = { Range: `bytes=${start}-${start + 65535}` };
    ttfb.push((await download(url, range)).ttfbMs);
    if (nginx) ngTtfb.push((await download(`${nginx.url}/share.bin`, range)).ttfbMs);
    bareTtfb.push((await download(bareUrl, range)).ttfbMs);
  }
  for (const p of [50, 99]) {
    const base = nginx ? pct(ngTtfb, p) : null;
    const goal = p === 99 && nginx && !s3 ? { max: 3, text: 'goal ≤ 3× nginx' } : undefined;
    addRow(`Range time to first byte p${p}`, pct(ttfb, p), 'ms', base, 'nginx, same file', goal, false);
  }
  for (const p of [50, 99]) addRow(`Range time to first byte p${p}: ${bareLabel} (reference)`, pct(bareTtfb, p), 'ms', null, '', undefined, false);
}
