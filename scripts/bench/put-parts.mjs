// The bench's upload client, run in a small process of its own for every side alike: it PUTs
// byte ranges of one file, `parallel` at a time, and prints how long that took. (Run inside the
// bench's own process, whose heap holds tsx and the whole bench, it read the file at half the
// speed, and every upload row measured that client instead of the server.)
//
// One JSON argument:
//   { file, parallel, parts: [{ url, start, end, headers }] }  plain HTTP PUTs
//   { file, parallel, parts: [{ start, end, n }], sdk: { config, bucket, key, uploadId } }
//                                                             the AWS SDK's UploadPart, straight to S3
// One JSON line out: { ms, results: [{ status, etag, body }] } in part order.
import { createReadStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';

const job = JSON.parse(process.argv[2]);
const MiB = 1024 * 1024;
const body = (p) => createReadStream(job.file, { start: p.start, end: p.end - 1, highWaterMark: MiB });

function put(p) {
  return new Promise((resolve, reject) => {
    const lib = p.url.startsWith('https:') ? https : http;
    const req = lib.request(p.url, { method: 'PUT', agent: false, headers: { ...p.headers, 'Content-Length': String(p.end - p.start) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, etag: res.headers.etag ?? null, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    body(p).pipe(req);
  });
}

let send = put;
let client;
if (job.sdk) {
  const { S3Client, UploadPartCommand } = await import('@aws-sdk/client-s3');
  client = new S3Client(job.sdk.config);
  const { bucket: Bucket, key: Key, uploadId: UploadId } = job.sdk;
  send = async (p) => {
    const r = await client.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: p.n, ContentLength: p.end - p.start, Body: body(p) }));
    return { status: 200, etag: r.ETag ?? null, body: '' };
  };
}

const results = new Array(job.parts.length);
let next = 0;
const t0 = performance.now();
await Promise.all(
  Array.from({ length: Math.min(job.parallel, job.parts.length) }, async () => {
    while (next < job.parts.length) {
      const i = next++;
      results[i] = await send(job.parts[i]);
    }
  }),
);
const ms = performance.now() - t0;
client?.destroy();
process.stdout.write(JSON.stringify({ ms, results }) + '\n');
