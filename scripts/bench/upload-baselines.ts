/**
 * The plain ways to do what a share upload does, measured beside it in the same run: a bare
 * Node server streaming each PUT into a file on the same filesystem (fs), and the AWS SDK
 * putting the same parts straight to the S3 server (s3). Never our own code path.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AbortMultipartUploadCommand, CreateMultipartUploadCommand } from '@aws-sdk/client-s3';
import { s3FromEnv } from '../../tests/support/env';
import { s3Client, s3ClientConfig } from '../../tests/support/services';
import { startBareServer } from './common';

/**
 * About ten lines of Node: each PUT is piped into one file at its part's offset
 * (`createWriteStream(file, { flags: 'r+', start })`), as our fs store lays parts out in one
 * sparse file and as a person checking us would write it. A child process, like our server.
 */
export const BARE_SERVER = `
const http = require('http'), fs = require('fs'), path = require('path');
http.createServer((req, res) => {
  const u = new URL(req.url, 'http://bare');
  const out = fs.createWriteStream(path.join(process.argv[1], 'bare-' + u.pathname.slice(1)), { flags: 'r+', start: Number(u.searchParams.get('start')) });
  out.on('error', (e) => { res.statusCode = 500; res.end(String(e)); });
  out.on('finish', () => res.end('{}'));
  req.pipe(out);
}).listen(Number(process.argv[2]), '127.0.0.1', () => console.log('up'));`;

export interface Baseline {
  /**
   * Milliseconds to put the file's bytes as `partSize` parts, `parallel` at a time, and how to
   * delete what it stored (called by the bench when it deletes ours too).
   */
  upload(file: string, size: number, partSize: number, parallel: number): Promise<{ ms: number; cleanup: () => Promise<void> }>;
  label: string;
  stop(): Promise<void>;
}

export async function bareNodeBaseline(dir: string): Promise<Baseline> {
  const server = await startBareServer(BARE_SERVER, [dir]);
  return {
    label: 'bare Node server piping each PUT into one file at its offset, same disk',
    async upload(file, size, partSize, parallel) {
      const run = randomBytes(4).toString('hex');
      const target = path.join(dir, `bare-${run}`);
      await writeFile(target, '');
      const parts = partsOf(size, partSize).map((p) => ({ ...p, url: `${server.url}/${run}?start=${p.start}`, headers: {} }));
      const { ms, results } = await putParts({ file, parallel, parts });
      const bad = results.find((r) => r.status !== 200);
      if (bad) throw new Error(`bare server: ${bad.status} ${bad.body}`);
      return { ms, cleanup: () => rm(target, { force: true }) };
    },
    stop: async () => server.stop(),
  };
}

export function sdkBaseline(env: Record<string, string | undefined>): Baseline {
  const settings = s3FromEnv()!;
  const client = s3Client(settings);
  const config = s3ClientConfig(settings);
  const Bucket = env.S3_BUCKET!;
  return {
    label: 'the same parts PUT to S3 by the AWS SDK',
    async upload(file, size, partSize, parallel) {
      const Key = `bench/sdk-${Date.now()}`;
      const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key }));
      const sdk = { config, bucket: Bucket, key: Key, uploadId: UploadId };
      const { ms } = await putParts({ file, parallel, parts: partsOf(size, partSize), sdk });
      return { ms, cleanup: async () => void (await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }))) };
    },
    stop: async () => client.destroy(),
  };
}

/** The parts of a file (end exclusive, n from 1). */
export function partsOf(size: number, partSize: number): { start: number; end: number; n: number }[] {
  const count = Math.max(1, Math.ceil(size / partSize));
  return Array.from({ length: count }, (_, i) => ({ start: i * partSize, end: Math.min(size, (i + 1) * partSize), n: i + 1 }));
}

export interface PutResult {
  status: number;
  etag: string | null;
  body: string;
}

/** Runs scripts/bench/put-parts.mjs, the upload client every side shares, in its own process. */
export function putParts(job: {
  file: string;
  parallel: number;
  parts?: object[];
  sdk?: object;
  /** A whole share upload through our server: init, its parts, complete, all timed. */
  share?: { base: string; token: string; size: number };
}): Promise<{ ms: number; results: PutResult[]; share: { id: string } | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(import.meta.dirname, 'put-parts.mjs'), JSON.stringify(job)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`put-parts exited with ${code}`))));
  });
}

/** Runs fn over the parts of a file (end exclusive, n from 1), `parallel` at a time. */
export async function eachPart(size: number, partSize: number, parallel: number, fn: (start: number, end: number, n: number) => Promise<unknown>): Promise<void> {
  const parts = partsOf(size, partSize);
  let next = 0;
  const worker = async () => {
    while (next < parts.length) {
      const { start, end, n } = parts[next++];
      await fn(start, end, n);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, parts.length) }, worker));
}
