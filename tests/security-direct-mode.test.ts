import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HtmlsClient } from '@/lib/client/node/sdk';
import type { StorageDriver } from '@/lib/storage/types';
import { migratedServiceEnv } from './support/file-server';
import { attemptCopyAttack, memberToken, rawPut } from './support/copy-attack';
import { call } from './support/http';
import { requires } from './support/requires';
import { startInProcess, type InProcessServer } from './support/in-process';
import { tempDir } from './support/server';
import { uploadShare } from './support/shares';
import { openStore } from './support/store';
import { strictS3Front } from './support/strict-s3';

/**
 * Direct mode on a store that refuses unsigned x-amz-* headers on presigned URLs, as AWS
 * does: radosgw behind tests/support/strict-s3.ts. The server's boot probe passes there, so
 * parts go straight to the bucket, and what the presigned URL signs is what radosgw checks.
 */
let server: InProcessServer;
let store: StorageDriver;
let front: Awaited<ReturnType<typeof strictS3Front>>;
let bucket: string;

/** A PUT whose Content-Length header says one thing and whose body is another size. */
function lyingPut(url: string, declared: number, body: Buffer): Promise<number> {
  return new Promise((resolve) => {
    // agent: false: the bytes past the declared length poison the connection; no later request may reuse it.
    const req = http.request(url, { method: 'PUT', agent: false, headers: { 'Content-Length': String(declared) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

requires('s3').describe('direct mode on a store that refuses unsigned headers', () => {
  beforeAll(async () => {
    const env = await migratedServiceEnv();
    front = await strictS3Front(env.S3_ENDPOINT!);
    // The janitor runs every second: an oversized upload is aborted on sight, long before the TTL.
    const served = { ...env, S3_ENDPOINT: front.endpoint, JANITOR_INTERVAL_SECONDS: '1' };
    // In this process: the boot probe runs per service and logs to its output() (lib/boot.ts).
    server = await startInProcess(served);
    store = openStore(env, server.dataDir);
    bucket = env.S3_BUCKET!;
  });
  afterAll(async () => {
    await server?.stop();
    await front?.close();
  });

  it('GET /api/shares/upload/capabilities — the store passed the boot probe: direct mode', async () => {
    const token = await memberToken(server.url);
    const caps = await call('GET', '/api/shares/upload/capabilities', { base: server.url, token });
    expect(caps.json).toMatchObject({ mode: 'direct', partSize: 67_108_864, parallel: 3 });
    expect(server.output()).not.toMatch(/direct uploads are off/);
  });

  it('POST /api/shares/upload/part-url — the copy attack is refused by the store', async () => {
    const r = await attemptCopyAttack(server.url, store, bucket);
    expect(r.answers.map((a) => a.mode)).toEqual(['direct', 'direct', 'direct']);
    for (const a of r.answers) expect(a.status).toBe(403);
    expect(front.refused.every((h) => h === 'x-amz-copy-source')).toBe(true);
    for (const s of r.storedSizes) expect(s.stored).toEqual([]);
    expect(r.leaked).toEqual([]);
  });

  it('POST /api/shares/upload/part-url — the URL signs the part\'s length: a larger or smaller body is refused, nothing stored', async () => {
    const token = await memberToken(server.url);
    const init = await call('POST', '/api/shares/upload/init', { base: server.url, token, body: { files: [{ clientPath: 'one-byte.bin', size: 1 }] } });
    const f = init.json.files[0];
    const ref = { groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 };
    const signed = await call('POST', '/api/shares/upload/part-url', { base: server.url, token, body: ref });
    expect(signed.status).toBe(200);
    expect(new URL(signed.json.url).searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-length');
    // The review's 100 MB into a 1-byte part, at 8 MB here: refused by the signature.
    // The store may answer 403 and close before the 8 MB are sent: a reset while writing is the
    // same refusal (what reached the store is checked below: nothing but the 1-byte part).
    const big = await rawPut(signed.json.url, {}, Buffer.alloc(8 * 1024 * 1024)).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ECONNRESET' || e.code === 'EPIPE') return { status: 'reset before the whole body' };
      throw e;
    });
    expect([403, 'reset before the whole body']).toContain(big.status);
    expect((await rawPut(signed.json.url, {}, Buffer.alloc(0))).status).toBe(403);
    // A header that claims the signed length while more bytes follow: the extra is not a part.
    await lyingPut(signed.json.url, 1, Buffer.alloc(1024 * 1024));
    // The part URL started the file's one store upload (the client's uploadId is the server's handle).
    const [stored] = await store.listMultipartUploads(`shared/${init.json.groupId}/`);
    expect((await store.listParts(f.storageKey, stored.uploadId)).every((p) => p.size === 1)).toBe(true);
    expect((await rawPut(signed.json.url, {}, Buffer.from('x'))).status).toBe(200);
    expect(await store.listParts(f.storageKey, stored.uploadId)).toMatchObject([{ partNumber: 1, size: 1 }]);
  });

  it('the janitor aborts a pending upload whose stored part exceeds its declaration, keeping the others', async () => {
    const token = await memberToken(server.url);
    const start = async (size: number) =>
      (await call('POST', '/api/shares/upload/init', { base: server.url, token, body: { files: [{ clientPath: 'f.bin', size }] } })).json;
    const bad = await start(1);
    const good = await start(10);
    // A store that ignored the signed length: 5 MB lands in the 1-byte file's part 1. Asking for
    // a part URL starts each file's store upload; the parts go in under the store's upload id.
    const storeUploadOf = async (init: any) => {
      const f = init.files[0];
      const ref = { groupId: init.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 };
      expect((await call('POST', '/api/shares/upload/part-url', { base: server.url, token, body: ref })).status).toBe(200);
      const [u] = await store.listMultipartUploads(`shared/${init.groupId}/`);
      return { storageKey: f.storageKey as string, uploadId: u.uploadId };
    };
    const f = await storeUploadOf(bad);
    await store.uploadPart(f.storageKey, f.uploadId, 1, Readable.from([Buffer.alloc(5 * 1024 * 1024)]), 5 * 1024 * 1024);
    const g = await storeUploadOf(good);
    await store.uploadPart(g.storageKey, g.uploadId, 1, Readable.from([Buffer.alloc(10)]), 10);
    const groups = async () => ((await call('GET', '/api/shares', { base: server.url, token })).json.shares as { id: string }[]).map((s) => s.id);
    await expect.poll(groups, { timeout: 30_000, interval: 250 }).toEqual([good.groupId]);
    await expect.poll(() => store.listMultipartUploads(`shared/${bad.groupId}/`), { timeout: 10_000, interval: 250 }).toEqual([]);
    expect(await store.listParts(g.storageKey, g.uploadId)).toMatchObject([{ partNumber: 1, size: 10 }]);
  });

  it('the SDK uploads a multi-part file straight to the bucket', async () => {
    const token = await memberToken(server.url);
    const dir = tempDir('htmls-direct-sdk-');
    const data = randomBytes(64 * 1024 * 1024 + 4096);
    writeFileSync(path.join(dir, 'clip.bin'), data);
    const client = new HtmlsClient({ baseUrl: server.url, token });
    const share = await client.uploadShare([path.join(dir, 'clip.bin')], { stateDir: tempDir('htmls-direct-state-') });
    expect(share.total_bytes).toBe(data.length);
    const got = Buffer.from(await (await fetch(`${server.url}${share.url}/clip.bin`)).arrayBuffer());
    expect(got.equals(data)).toBe(true);
    // And the test helper's browser-like fetch PUT of a small file.
    const small = randomBytes(1000);
    const { share: s2 } = await uploadShare(token, { 'a/b.bin': small, 'empty.txt': Buffer.alloc(0) }, { base: server.url });
    expect(s2).toMatchObject({ file_count: 2, total_bytes: 1000 });
  });
});
