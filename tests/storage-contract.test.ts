import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createFsStorage } from '@/lib/storage/fs';
import { createS3Storage } from '@/lib/storage/s3';
import { StorageInvalidKeyError, StorageNotFoundError, StorageUnavailableError, type StorageDriver } from '@/lib/storage/types';
import { s3FromEnv } from './support/env';
import { tempDir } from './support/server';
import { requires } from './support/requires';
import { createTestBucket } from './support/services';

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

const MiB = 1024 * 1024;
const s3 = s3FromEnv();

type Factory = () => Promise<StorageDriver>;
const drivers: [string, Factory, typeof describe | ReturnType<typeof requires>['describe']][] = [
  ['fs', async () => createFsStorage(tempDir('htmls-store-')), describe],
  [
    's3',
    async () => createS3Storage({ ...s3!, bucket: await createTestBucket('htmls-contract'), setCors: false }),
    // The S3 half needs an S3 server (S3_ENDPOINT and keys); .ci/run provides one.
    requires('s3').describe,
  ],
];

for (const [name, make, suite] of drivers) {
  suite(`storage contract — ${name} driver`, () => {
    let store: StorageDriver;
    const get = async () => (store ??= await make());
    afterAll(() => store?.close());

    it('puts a stream and reads it back whole, with size and a quoted ETag', async () => {
      const s = await get();
      const data = randomBytes(3 * MiB + 17);
      const put = await s.put('files/site/index.html', Readable.from([data.subarray(0, MiB), data.subarray(MiB)]), { size: data.length });
      expect(put.size).toBe(data.length);
      expect(put.etag).toMatch(/^".+"$/);
      const got = await s.get('files/site/index.html');
      expect(got.size).toBe(data.length);
      expect((await readAll(got.body)).equals(data)).toBe(true);
    });

    it('puts streams of unknown length (as a form upload gives them): empty, small and several pieces', async () => {
      const s = await get();
      for (const [i, size] of [0, 1000, 17 * MiB + 5].entries()) {
        const data = randomBytes(size);
        const chunks = [];
        for (let o = 0; o < size; o += 300_000) chunks.push(data.subarray(o, o + 300_000));
        const put = await s.put(`files/unknown/${i}.bin`, Readable.from(chunks));
        expect(put.size).toBe(size);
        const got = await s.get(`files/unknown/${i}.bin`);
        expect((await readAll(got.body)).equals(data)).toBe(true);
      }
      expect(await s.listMultipartUploads('files/unknown/')).toEqual([]);
    });

    it('reads an inclusive byte range', async () => {
      const s = await get();
      const data = randomBytes(100_000);
      await s.put('files/site/range.bin', data);
      const got = await s.get('files/site/range.bin', { start: 10, end: 99 });
      expect(got.size).toBe(100_000);
      expect((await readAll(got.body)).equals(data.subarray(10, 100))).toBe(true);
    });

    it('streams a range that spans several read chunks, and any range of one read exactly', async () => {
      const s = await get();
      const data = randomBytes(3 * MiB + 12_345);
      await s.put('files/site/big.bin', data);
      for (const [start, end] of [[1, 3 * MiB + 100], [MiB - 1, MiB], [0, data.length - 1], [2 * MiB, 3 * MiB - 1]]) {
        const got = await s.get('files/site/big.bin', { start, end });
        expect((await readAll(got.body)).equals(data.subarray(start, end + 1))).toBe(true);
      }
    });

    if (name === 'fs') it('a stream of a file shorter than the range asked fails instead of ending early', async () => {
      const s = await get();
      await s.put('files/site/short.bin', randomBytes(2 * MiB));
      const got = await s.get('files/site/short.bin', { start: MiB, end: 3 * MiB });
      await expect(readAll(got.body)).rejects.toBeInstanceOf(StorageUnavailableError);
    });

    if (name === 'fs') it('the pooled-range capability: a small range in one buffer; a missing object is not found, a short one a store fault', async () => {
      const s = await get();
      const data = randomBytes(300_000);
      await s.put('files/site/seek.bin', data);
      for (const [start, end] of [[0, 0], [1000, 66_535], [299_990, 299_999]]) {
        expect((await s.capabilities.pooledRange!.read('files/site/seek.bin', { start, end })).equals(data.subarray(start, end + 1))).toBe(true);
      }
      await expect(s.capabilities.pooledRange!.read('files/site/none.bin', { start: 0, end: 9 })).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(s.capabilities.pooledRange!.read('files/site/seek.bin', { start: 299_990, end: 300_009 })).rejects.toBeInstanceOf(StorageUnavailableError);
    });

    it('heads an object, and answers null for a missing one', async () => {
      const s = await get();
      await s.put('files/site/h.txt', Buffer.from('hello'));
      expect(await s.head('files/site/h.txt')).toMatchObject({ key: 'files/site/h.txt', size: 5 });
      expect(await s.head('files/site/missing.txt')).toBeNull();
      await expect(s.get('files/site/missing.txt')).rejects.toBeInstanceOf(StorageNotFoundError);
    });

    it('keeps a key and a longer key under it apart (a and a/b)', async () => {
      const s = await get();
      await s.put('files/nest/a', Buffer.from('A'));
      await s.put('files/nest/a/b', Buffer.from('B'));
      expect((await readAll((await s.get('files/nest/a')).body)).toString()).toBe('A');
      expect((await readAll((await s.get('files/nest/a/b')).body)).toString()).toBe('B');
    });

    it('replaces an object on a second put', async () => {
      const s = await get();
      await s.put('files/site/r.txt', Buffer.from('one'));
      await s.put('files/site/r.txt', Buffer.from('second'));
      expect((await readAll((await s.get('files/site/r.txt')).body)).toString()).toBe('second');
    });

    it('lists by prefix and deletes one object or a whole prefix', async () => {
      const s = await get();
      await s.put('shared/g1/a.txt', Buffer.from('a'));
      await s.put('shared/g1/dir/b.txt', Buffer.from('bb'));
      await s.put('shared/g2/c.txt', Buffer.from('c'));
      expect((await s.list('shared/g1/')).map((o) => o.key).sort()).toEqual(['shared/g1/a.txt', 'shared/g1/dir/b.txt']);
      await s.delete('shared/g1/a.txt');
      await s.delete('shared/g1/a.txt'); // idempotent
      expect((await s.list('shared/g1/')).map((o) => o.key)).toEqual(['shared/g1/dir/b.txt']);
      await s.deletePrefix('shared/g1/');
      expect(await s.list('shared/g1/')).toEqual([]);
      expect((await s.list('shared/g2/')).map((o) => o.key)).toEqual(['shared/g2/c.txt']);
    });

    it('refuses keys that could leave the store', async () => {
      const s = await get();
      for (const key of ['../etc/passwd', 'files/../../x', '/abs', 'files/a\\b', 'files//x', 'files/./x', 'files/a\u0000b', '']) {
        await expect(s.put(key, Buffer.from('x'))).rejects.toBeInstanceOf(StorageInvalidKeyError);
      }
    });

    it('runs a multi-part upload: parts streamed, listed with sizes, re-sent part replaces, completed in order', async () => {
      const s = await get();
      const key = 'shared/mp1/video.mp4';
      const part1 = randomBytes(5 * MiB);
      const part2 = randomBytes(5 * MiB);
      const part3 = randomBytes(123_456);
      const id = await s.createMultipart(key, { contentType: 'video/mp4', partSize: 5 * MiB });
      const e2 = await s.uploadPart(key, id, 2, Readable.from([randomBytes(5 * MiB)]), 5 * MiB);
      const e1 = await s.uploadPart(key, id, 1, Readable.from([part1]), part1.length);
      const e2b = await s.uploadPart(key, id, 2, Readable.from([part2]), part2.length); // replaces
      const e3 = await s.uploadPart(key, id, 3, Readable.from([part3]), part3.length);
      expect(e2b.etag).not.toBe(e2.etag);
      const parts = await s.listParts(key, id);
      expect(parts.map((p) => [p.partNumber, p.size])).toEqual([
        [1, part1.length],
        [2, part2.length],
        [3, part3.length],
      ]);
      expect(parts[1].etag).toBe(e2b.etag);
      const done = await s.completeMultipart(key, id, [
        { partNumber: 3, etag: e3.etag },
        { partNumber: 1, etag: e1.etag },
        { partNumber: 2, etag: e2b.etag },
      ]);
      expect(done.size).toBe(part1.length + part2.length + part3.length);
      const body = await readAll((await s.get(key)).body);
      expect(body.equals(Buffer.concat([part1, part2, part3]))).toBe(true);
      await expect(s.listParts(key, id)).rejects.toBeInstanceOf(StorageNotFoundError);
    });

    it('aborts a multi-part upload and forgets its parts; unknown upload ids are not found', async () => {
      const s = await get();
      const key = 'shared/mp2/a.bin';
      const id = await s.createMultipart(key, { partSize: 5 * MiB });
      await s.uploadPart(key, id, 1, Readable.from([randomBytes(1000)]), 1000);
      expect((await s.listMultipartUploads('shared/mp2/')).map((u) => u.uploadId)).toContain(id);
      await s.abortMultipart(key, id);
      await s.abortMultipart(key, id); // idempotent
      await expect(s.listParts(key, id)).rejects.toBeInstanceOf(StorageNotFoundError);
      expect(await s.listMultipartUploads('shared/mp2/')).toEqual([]);
      expect(await s.head(key)).toBeNull();
      const bogus = name === 'fs' ? 'f'.repeat(32) : 'not-an-upload-id';
      await expect(s.uploadPart(key, bogus, 1, Readable.from([Buffer.from('x')]), 1)).rejects.toBeInstanceOf(StorageNotFoundError);
    });

    it('rejects a part whose body is shorter than announced and keeps nothing of it', async () => {
      const s = await get();
      const key = 'shared/mp3/a.bin';
      const id = await s.createMultipart(key, { partSize: 5 * MiB });
      await expect(s.uploadPart(key, id, 1, Readable.from([Buffer.alloc(10)]), 20)).rejects.toThrow();
      expect(await s.listParts(key, id)).toEqual([]);
      await s.abortMultipart(key, id);
    });

    it('shows each chunk of a part to the observer, in order, as it stores it', async () => {
      const s = await get();
      const key = 'shared/mp6/a.bin';
      const id = await s.createMultipart(key, { partSize: 5 * MiB });
      const pieces = [randomBytes(3 * MiB), randomBytes(1), randomBytes(2 * MiB - 1)];
      const seen: Buffer[] = [];
      await s.uploadPart(key, id, 1, Readable.from(pieces), 5 * MiB, (c) => seen.push(Buffer.from(c)));
      expect(Buffer.concat(seen).equals(Buffer.concat(pieces))).toBe(true);
      await s.abortMultipart(key, id);
    });

    it('a body that failed or closed before the store began fails the part (no wait for bytes that never come)', async () => {
      const s = await get();
      const key = 'shared/mp7/a.bin';
      const id = await s.createMultipart(key, { partSize: 5 * MiB });
      const failed = new Readable({ read() {} }).on('error', () => {});
      failed.destroy(new Error('client went away'));
      await expect(s.uploadPart(key, id, 1, failed, 10)).rejects.toThrow();
      const closed = new Readable({ read() {} });
      closed.destroy();
      await expect(s.uploadPart(key, id, 1, closed, 10)).rejects.toThrow();
      expect(await s.listParts(key, id)).toEqual([]);
      await s.abortMultipart(key, id);
    });

    it('deletePrefix also aborts unfinished multi-part uploads under the prefix', async () => {
      const s = await get();
      const key = 'shared/mp4/a.bin';
      const id = await s.createMultipart(key, { partSize: 5 * MiB });
      await s.uploadPart(key, id, 1, Readable.from([Buffer.alloc(100)]), 100);
      await s.deletePrefix('shared/mp4/');
      expect(await s.listMultipartUploads('shared/mp4/')).toEqual([]);
      await expect(s.listParts(key, id)).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(s.uploadPart(key, id, 2, Readable.from([Buffer.alloc(100)]), 100)).rejects.toBeInstanceOf(StorageNotFoundError);
    });

    if (name === 's3') it('a missing bucket is the store being unavailable, not a missing object', async () => {
      const gone = createS3Storage({ ...s3!, bucket: `htmls-no-such-bucket-${Date.now()}`, setCors: false });
      await expect(gone.get('files/site/a.txt')).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(gone.put('files/site/a.txt', Buffer.from('a'))).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(gone.createMultipart('shared/x/a.bin', { partSize: 5 * MiB })).rejects.toBeInstanceOf(StorageUnavailableError);
      gone.close();
    });

    // Only the S3 driver presigns (the fs store has no URLs of its own).
    if (name === 's3') it('presigns an UploadPart URL that a plain HTTP PUT can use', async () => {
      const s = await get();
      const key = 'shared/mp5/direct.bin';
      const id = await s.createMultipart(key, { partSize: 5 * MiB });
      const data = randomBytes(64 * 1024);
      const { url, expiresAt } = await s.capabilities.presignedParts!.part(key, id, 1, data.length, 300);
      expect(expiresAt.getTime()).toBeGreaterThan(Date.now());
      const res = await fetch(url, { method: 'PUT', body: data });
      expect(res.status).toBe(200);
      const etag = res.headers.get('etag')!;
      expect((await s.listParts(key, id))[0]).toMatchObject({ partNumber: 1, size: data.length, etag });
      await s.completeMultipart(key, id, [{ partNumber: 1, etag }]);
      expect((await readAll((await s.get(key)).body)).equals(data)).toBe(true);
    });
  });
}
