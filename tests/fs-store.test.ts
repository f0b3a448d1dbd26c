import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createFsStorage } from '@/lib/storage/fs';
import { StorageInvalidPartError, StorageNotFoundError } from '@/lib/storage/types';
import { tempDir } from './support/server';

const MiB = 1024 * 1024;

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

/** Every file under dir whose path contains `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(e.parentPath, e.name);
    if (e.isFile() && p.includes(needle)) out.push(p);
  }
  return out;
}

describe('fs store — multi-part area', () => {
  it('aborting one group never reads another group’s uploads (each group has its own folder)', async () => {
    const root = tempDir('htmls-fs-');
    const s = createFsStorage(root);
    const mine = await s.createMultipart('shared/groupA/a.bin', { partSize: MiB });
    await s.uploadPart('shared/groupA/a.bin', mine, 1, Readable.from([Buffer.alloc(100)]), 100);
    const other = await s.createMultipart('shared/groupB/b.bin', { partSize: MiB });
    // A trap: every file of the other group's upload becomes a FIFO, which blocks whoever
    // opens it. A cleanup that reads every upload in the store hangs here.
    for (const f of filesContaining(path.join(root, 'multipart'), other)) {
      rmSync(f);
      execFileSync('mkfifo', [f]);
    }
    await s.deletePrefix('shared/groupA/');
    expect(await s.listMultipartUploads('shared/groupA/')).toEqual([]);
    expect(readdirSync(path.join(root, 'multipart', 'shared')).sort()).toEqual(['groupB']);
  });

  it('writes each part in place and completes without copying: the object is the upload’s own file', async () => {
    const root = tempDir('htmls-fs-');
    const s = createFsStorage(root);
    const key = 'shared/g1/v.bin';
    const id = await s.createMultipart(key, { partSize: MiB });
    const parts = [randomBytes(MiB), randomBytes(MiB), randomBytes(1234)];
    const etags = [];
    for (const [i, p] of [...parts.entries()].reverse()) etags[i] = (await s.uploadPart(key, id, i + 1, Readable.from([p]), p.length)).etag;
    const [data] = filesContaining(path.join(root, 'multipart'), 'data');
    const inode = statSync(data).ino;
    await s.completeMultipart(key, id, etags.map((etag, i) => ({ partNumber: i + 1, etag })));
    const [object] = filesContaining(path.join(root, 'objects'), 'data');
    expect(statSync(object).ino).toBe(inode);
    expect((await readAll((await s.get(key)).body)).equals(Buffer.concat(parts))).toBe(true);
  });

  it('two completes of one upload: exactly one succeeds, the other finds no upload', async () => {
    const s = createFsStorage(tempDir('htmls-fs-'));
    const key = 'shared/g2/a.bin';
    const id = await s.createMultipart(key, { partSize: MiB });
    const { etag } = await s.uploadPart(key, id, 1, Readable.from([Buffer.from('hello')]), 5);
    const results = await Promise.allSettled([1, 2, 3].map(() => s.completeMultipart(key, id, [{ partNumber: 1, etag }])));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(StorageNotFoundError);
    expect((await readAll((await s.get(key)).body)).toString()).toBe('hello');
  });

  it('complete stops a part still being written: no byte of it lands in the object, and its part must be sent again', async () => {
    const root = tempDir('htmls-fs-');
    const s = createFsStorage(root);
    const key = 'shared/g3/a.bin';
    const size = 2 * MiB;
    const id = await s.createMultipart(key, { partSize: size });
    const { etag } = await s.uploadPart(key, id, 1, Readable.from([Buffer.alloc(size, 1)]), size);
    // The same part again, still arriving: its first MiB and a half written, then the sender stalls.
    const slow = new PassThrough();
    const resend = s.uploadPart(key, id, 1, slow, size).then(
      () => null,
      (e: unknown) => e,
    );
    slow.write(Buffer.alloc(1.5 * MiB, 2));
    const [data] = filesContaining(path.join(root, 'multipart'), 'data');
    await expect.poll(() => readFileSync(data)[0], { timeout: 10_000, interval: 20 }).toBe(2);
    await expect(s.completeMultipart(key, id, [{ partNumber: 1, etag }])).rejects.toBeInstanceOf(StorageInvalidPartError);
    expect(await resend).toBeInstanceOf(StorageNotFoundError);
    // The half-written part lost its marker: the client is told to send it again.
    expect(await s.listParts(key, id)).toEqual([]);
    expect(await s.head(key)).toBeNull();
  });

  it('complete of an upload with no write in flight publishes exactly the stored parts', async () => {
    const s = createFsStorage(tempDir('htmls-fs-'));
    const key = 'shared/g4/a.bin';
    const id = await s.createMultipart(key, { partSize: 4 });
    const e1 = await s.uploadPart(key, id, 1, Readable.from([Buffer.from('abcd')]), 4);
    const e2 = await s.uploadPart(key, id, 2, Readable.from([Buffer.from('ef')]), 2);
    // A stray higher part is not part of the object.
    await s.uploadPart(key, id, 3, Readable.from([Buffer.from('zz')]), 2);
    const done = await s.completeMultipart(key, id, [
      { partNumber: 1, etag: e1.etag },
      { partNumber: 2, etag: e2.etag },
    ]);
    expect(done.size).toBe(6);
    expect((await readAll((await s.get(key)).body)).toString()).toBe('abcdef');
  });

  it('a last part sent again shorter completes to the shorter bytes (the data file is cut to the parts named)', async () => {
    const s = createFsStorage(tempDir('htmls-fs-'));
    const key = 'shared/g6/a.bin';
    const id = await s.createMultipart(key, { partSize: 4 });
    const e1 = await s.uploadPart(key, id, 1, Readable.from([Buffer.from('abcd')]), 4);
    await s.uploadPart(key, id, 2, Readable.from([Buffer.from('wxyz')]), 4);
    const e2 = await s.uploadPart(key, id, 2, Readable.from([Buffer.from('ef')]), 2);
    expect(await s.listParts(key, id)).toEqual([
      { partNumber: 1, size: 4, etag: e1.etag },
      { partNumber: 2, size: 2, etag: e2.etag },
    ]);
    const done = await s.completeMultipart(key, id, [
      { partNumber: 1, etag: e1.etag },
      { partNumber: 2, etag: e2.etag },
    ]);
    expect(done.size).toBe(6);
    expect((await readAll((await s.get(key)).body)).toString()).toBe('abcdef');
  });

  it('an upload begun before a restart is listed, continued and completed from what the disk holds', async () => {
    const root = tempDir('htmls-fs-');
    const key = 'shared/g7/a.bin';
    const partSize = 2 * MiB;
    const before = createFsStorage(root);
    const id = await before.createMultipart(key, { partSize });
    const first = randomBytes(partSize);
    const e1 = await before.uploadPart(key, id, 1, Readable.from([first]), partSize);
    // Part 2 cut short once 1.5 MiB of it is on disk: no marker, so not listed after the
    // restart, and its bytes lie past the end of the shorter part 2 sent then.
    const cut = new PassThrough();
    const lost = before.uploadPart(key, id, 2, cut, partSize).catch((e: unknown) => e);
    cut.write(Buffer.alloc(1.5 * MiB, 0x7a));
    const [data] = filesContaining(path.join(root, 'multipart'), 'data');
    await expect.poll(() => statSync(data).size, { timeout: 10_000, interval: 20 }).toBe(3.5 * MiB);
    cut.destroy();
    await lost;
    const after = createFsStorage(root);
    expect(await after.listParts(key, id)).toEqual([{ partNumber: 1, size: partSize, etag: e1.etag }]);
    const e2 = await after.uploadPart(key, id, 2, Readable.from([Buffer.from('ef')]), 2);
    expect((await after.listParts(key, id)).map((p) => p.partNumber)).toEqual([1, 2]);
    await after.completeMultipart(key, id, [
      { partNumber: 1, etag: e1.etag },
      { partNumber: 2, etag: e2.etag },
    ]);
    expect((await readAll((await after.get(key)).body)).equals(Buffer.concat([first, Buffer.from('ef')]))).toBe(true);
  });

  it('a completed upload leaves nothing of itself in the multi-part area, a stray part included', async () => {
    const root = tempDir('htmls-fs-');
    const s = createFsStorage(root);
    const uploads: { key: string; id: string; e1: { etag: string } }[] = [];
    for (const name of ['a.bin', 'b.bin']) {
      const key = `shared/g5/${name}`;
      const id = await s.createMultipart(key, { partSize: 4 });
      const e1 = await s.uploadPart(key, id, 1, Readable.from([Buffer.from('abcd')]), 4);
      uploads.push({ key, id, e1 });
    }
    // b.bin has a part 2 that its complete does not name.
    await s.uploadPart(uploads[1].key, uploads[1].id, 2, Readable.from([Buffer.from('zz')]), 2);
    for (const u of uploads) await s.completeMultipart(u.key, u.id, [{ partNumber: 1, etag: u.e1.etag }]);
    const left = readdirSync(path.join(root, 'multipart'), { withFileTypes: true, recursive: true }).filter((e) => !e.isDirectory() || e.name.includes(uploads[0].id) || e.name.includes(uploads[1].id));
    expect(left).toEqual([]);
    expect(await s.listMultipartUploads('shared/g5/')).toEqual([]);
    for (const u of uploads) expect((await readAll((await s.get(u.key)).body)).toString()).toBe('abcd');
  });
});

describe('fs store — temporary files', () => {
  it('the temporary-files capability removes temporary files (and old-layout uploads) older than the cut-off, and keeps fresh ones', async () => {
    const root = tempDir('htmls-fs-');
    const s = createFsStorage(root);
    await s.put('files/x/y', Buffer.from('x')); // creates tmp/
    const tmp = path.join(root, 'tmp');
    const old = path.join(tmp, 'a'.repeat(24));
    const fresh = path.join(tmp, 'b'.repeat(24));
    writeFileSync(old, 'left by a crash');
    writeFileSync(fresh, 'being written');
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(old, hourAgo, hourAgo);
    const legacy = path.join(root, 'multipart', 'c'.repeat(32));
    mkdirSync(legacy, { recursive: true });
    writeFileSync(path.join(legacy, 'key'), 'shared/old/a.bin');
    utimesSync(path.join(legacy, 'key'), hourAgo, hourAgo);
    expect(await s.capabilities.temporaryFiles!.sweep(new Date(Date.now() - 60_000))).toBe(2);
    expect(readdirSync(tmp)).toEqual(['b'.repeat(24)]);
    expect(readdirSync(path.join(root, 'multipart'))).toEqual([]);
  });
});

describe('fs store — cached read handles (a player’s seeks)', () => {
  const openFds = () => readdirSync('/proc/self/fd').length;

  it('a range read after the object was replaced, re-uploaded or deleted sees that change', async () => {
    const s = createFsStorage(tempDir('htmls-fs-'));
    const key = 'shared/h1/v.bin';
    const whole = { start: 0, end: 3 };
    await s.put(key, Buffer.from('aaaa'));
    expect((await s.capabilities.pooledRange!.read(key, whole)).toString()).toBe('aaaa');
    await s.put(key, Buffer.from('bbbb'));
    expect((await s.capabilities.pooledRange!.read(key, whole)).toString()).toBe('bbbb');
    const id = await s.createMultipart(key, { partSize: MiB });
    const { etag } = await s.uploadPart(key, id, 1, Readable.from([Buffer.from('cccc')]), 4);
    await s.completeMultipart(key, id, [{ partNumber: 1, etag }]);
    expect((await s.capabilities.pooledRange!.read(key, whole)).toString()).toBe('cccc');
    await s.delete(key);
    await expect(s.capabilities.pooledRange!.read(key, whole)).rejects.toBeInstanceOf(StorageNotFoundError);
    await s.put(key, Buffer.from('dddd'));
    expect((await s.capabilities.pooledRange!.read(key, whole)).toString()).toBe('dddd');
    await s.deletePrefix('shared/h1/');
    await expect(s.capabilities.pooledRange!.read(key, whole)).rejects.toBeInstanceOf(StorageNotFoundError);
  });

  it('keeps a bounded number of files open however many objects are read', async () => {
    const s = createFsStorage(tempDir('htmls-fs-'));
    const keys = Array.from({ length: 150 }, (_, i) => `shared/h2/f${i}.bin`);
    for (const k of keys) await s.put(k, Buffer.from('x'.repeat(10)));
    const before = openFds();
    for (const k of keys) await s.capabilities.pooledRange!.read(k, { start: 0, end: 9 });
    // Concurrent seeks of one object share its handle.
    await Promise.all(Array.from({ length: 50 }, () => s.capabilities.pooledRange!.read(keys[0], { start: 2, end: 5 })));
    // Closes of evicted handles are not awaited: wait on the count itself.
    await expect.poll(() => openFds() - before).toBeLessThanOrEqual(64);
    await s.deletePrefix('shared/h2/');
  });
});
