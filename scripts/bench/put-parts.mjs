// The bench's upload client, run in a small process of its own for every side alike: it PUTs
// byte ranges of one file, `parallel` at a time, and prints how long that took. (Run inside the
// bench's own process, whose heap holds tsx and the whole bench, it read the file at half the
// speed, and every upload row measured that client instead of the server.)
//
// One JSON argument:
//   { file, parallel, parts: [{ url, start, end, headers }] }  plain HTTP PUTs
//   { file, parallel, share: { base, token, size } }           a whole share upload as a client sees
//                                                             it: init, the server's parts, complete
//   { file, parallel, parts: [{ start, end, n }], sdk: { config, bucket, key, uploadId } }
//                                                             the AWS SDK's UploadPart, straight to S3
// One JSON line out: { ms, results: [{ status, etag, body }] } in part order.
import { createReadStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';

const job = JSON.parse(process.argv[2]);
const MiB = 1024 * 1024;
const body = (p) => createReadStream(job.file, { start: p.start, end: p.end - 1, highWaterMark: MiB });
// One keep-alive connection per worker, as a client reuses its connection (fetch, the CLI).
const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

function put(p) {
  return new Promise((resolve, reject) => {
    const lib = p.url.startsWith('https:') ? https : http;
    const req = lib.request(p.url, { method: 'PUT', agent: agents[new URL(p.url).protocol], headers: { ...p.headers, 'Content-Length': String(p.end - p.start) } }, (res) => {
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

async function apiCall(method, path, body) {
  const res = await fetch(job.share.base + path, {
    method,
    headers: { Authorization: `Bearer ${job.share.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

const t0 = performance.now();
let init;
if (job.share) {
  const { base, token, size } = job.share;
  init = await apiCall('POST', '/api/shares/upload/init', { files: [{ clientPath: 'bench.bin', size }] });
  const f = init.files[0];
  job.parts = Array.from({ length: f.partCount }, (_, i) => {
    const q = new URLSearchParams({ groupId: init.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: String(i + 1) });
    return { url: `${base}/api/shares/upload/chunk?${q}`, start: i * init.partSize, end: Math.min(size, (i + 1) * init.partSize), headers: { Authorization: `Bearer ${token}` } };
  });
}
const results = new Array(job.parts.length);
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(job.parallel, job.parts.length) }, async () => {
    while (next < job.parts.length) {
      const i = next++;
      results[i] = await send(job.parts[i]);
    }
  }),
);
let share = null;
if (job.share) {
  const bad = results.find((r) => r.status !== 200);
  if (bad) throw new Error(`part PUT: ${bad.status} ${bad.body}`);
  const f = init.files[0];
  const parts = results.map((r, i) => ({ partNumber: i + 1, etag: JSON.parse(r.body).etag }));
  share = (await apiCall('POST', '/api/shares/upload/complete', { groupId: init.groupId, files: [{ uploadId: f.uploadId, storageKey: f.storageKey, parts }] })).share;
}
const ms = performance.now() - t0;
client?.destroy();
for (const a of Object.values(agents)) a.destroy();
process.stdout.write(JSON.stringify({ ms, results, share }) + '\n');
