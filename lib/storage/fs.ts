import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  assertKey,
  StorageNotFoundError,
  StorageUnavailableError,
  type ByteRange,
  type GetResult,
  type ObjectInfo,
  type StorageDriver,
} from './types';
import { CHUNK, giveChunk, takeChunk } from './chunk-pool';
import { createFsMultipart, pruneEmpty } from './fs-multipart';
import { createReadHandles } from './read-handles';
import { writeAt } from './fs-write';

/**
 * Each object is a directory named by its key holding one data file, so that `a` and `a/b`
 * can both exist as in S3. The data file's name contains a backslash, which no key may.
 */
const DATA = '\\data';

export function createFsStorage(root: string): StorageDriver {
  const objects = path.resolve(root, 'objects');
  const tmp = path.resolve(root, 'tmp');

  const objectDir = (key: string) => {
    assertKey(key);
    const dir = path.resolve(objects, key);
    // Defence in depth: whatever assertKey let through must still resolve under the root.
    if (!dir.startsWith(objects + path.sep)) throw new StorageNotFoundError('key outside the store');
    return dir;
  };
  const dataFile = (key: string) => path.join(objectDir(key), DATA);
  const openData = (key: string) =>
    fs.open(dataFile(key), 'r').catch((e) => {
      throw isNotFound(e) ? new StorageNotFoundError('no such object') : e;
    });
  const multipart = createFsMultipart(root, objectDir);
  // Every write or delete of an object below runs in handles.changing().
  const handles = createReadHandles(openData);
  const tmpFile = async () => {
    await fs.mkdir(tmp, { recursive: true });
    return path.join(tmp, randomBytes(12).toString('hex'));
  };

  const info = (key: string, st: Stats): ObjectInfo => ({
    key,
    size: st.size,
    etag: etagOf(st),
    lastModified: st.mtime,
  });

  async function statOrNull(file: string): Promise<Stats | null> {
    try {
      return await fs.stat(file);
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  /** Streams body into a fresh temp file (fs-write.ts's batching writer), checking its length when one was announced. */
  async function writeTemp(body: Readable | Buffer, size?: number): Promise<string> {
    const file = await tmpFile();
    const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
    try {
      await writeAt(file, source, 0, size, { wrote: false, end: 0, stopped: null });
      return file;
    } catch (e) {
      await fs.rm(file, { force: true });
      throw e;
    }
  }

  async function placeAt(file: string, key: string): Promise<ObjectInfo> {
    const dir = objectDir(key);
    await fs.mkdir(dir, { recursive: true });
    const target = path.join(dir, DATA);
    await handles.changing(key, () => fs.rename(file, target));
    return info(key, await fs.stat(target));
  }

  /**
   * Takes a folder out of the store in one rename (into tmp/, on the same filesystem), then
   * unlinks its files in the background: deleting a share of 500 files costs what the rename
   * costs, not 1,500 file-system calls, and nothing under the prefix is found once this returns.
   * A crash midway leaves the folder to sweepTemporary().
   */
  async function discardDir(dir: string): Promise<void> {
    const gone = await tmpFile();
    try {
      await fs.rename(dir, gone);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    void fs.rm(gone, { recursive: true, force: true }).catch((e) => console.error('[htmls] removing a deleted folder failed; the janitor will retry:', (e as Error).message));
  }

  async function walk(dir: string, keyPrefix: string, out: ObjectInfo[]): Promise<void> {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (e) {
      if (isNotFound(e) || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw e;
    }
    for (const entry of entries) {
      if (entry.name === DATA && entry.isFile()) {
        const key = keyPrefix.slice(0, -1);
        const st = await statOrNull(path.join(dir, DATA));
        if (st && key) out.push(info(key, st));
      } else if (entry.isDirectory()) {
        await walk(path.join(dir, entry.name), `${keyPrefix}${entry.name}/`, out);
      }
    }
  }

  function readRange(key: string, range: ByteRange): Promise<Buffer> {
    return handles.use(key, async (handle) => {
      const length = range.end - range.start + 1;
      const buf = length <= CHUNK ? takeChunk().subarray(0, length) : Buffer.allocUnsafe(length);
      for (let off = 0; off < buf.length; ) {
        const { bytesRead } = await handle.read(buf, off, buf.length - off, range.start + off);
        if (bytesRead === 0) throw new StorageUnavailableError('the stored object is shorter than its record');
        off += bytesRead;
      }
      return buf;
    });
  }

  async function sweepTemporary(olderThan: Date): Promise<number> {
    let n = await multipart.sweepLegacy(olderThan);
    for (const name of await fs.readdir(tmp).catch(() => [] as string[])) {
      const st = await statOrNull(path.join(tmp, name));
      if (st && st.mtime < olderThan) {
        await fs.rm(path.join(tmp, name), { recursive: true, force: true });
        n++;
      }
    }
    return n;
  }

  const driver: StorageDriver = {
    kind: 'fs',
    capabilities: {
      pooledRange: { read: (key, range) => readRange(key, range) },
      temporaryFiles: { sweep: (olderThan) => sweepTemporary(olderThan) },
      presignedParts: null,
      presignedGet: null,
      bucketCors: null,
    },

    async put(key, body, opts) {
      objectDir(key);
      return placeAt(await writeTemp(body, opts?.size), key);
    },

    async get(key, range?: ByteRange): Promise<GetResult> {
      const handle = await openData(key);
      const st = await handle.stat().catch(async (e) => {
        await handle.close().catch(() => {});
        throw e;
      });
      const start = range?.start ?? 0;
      const end = range?.end ?? st.size - 1;
      return { ...info(key, st), body: readChunks(handle, start, end), range };
    },


    async head(key) {
      const st = await statOrNull(dataFile(key));
      return st ? info(key, st) : null;
    },

    async delete(key) {
      await handles.changing(key, () => fs.rm(dataFile(key), { force: true }));
      await pruneEmpty(path.dirname(dataFile(key)), objects);
    },

    async deletePrefix(prefix) {
      if (prefix.endsWith('/') && prefix.length > 1) {
        // A folder prefix (a share group, a deploy): both areas lose just that folder.
        const dir = objectDir(prefix.slice(0, -1));
        await multipart.deletePrefixFolder(prefix);
        await handles.changing(prefix, () => discardDir(dir));
        return;
      }
      const found = await driver.list(prefix);
      for (const u of await driver.listMultipartUploads(prefix)) await driver.abortMultipart(u.key, u.uploadId);
      for (const o of found) await driver.delete(o.key);
    },

    async list(prefix) {
      const cut = prefix.lastIndexOf('/');
      const base = cut >= 0 ? prefix.slice(0, cut + 1) : '';
      if (base) assertKey(base.slice(0, -1));
      const out: ObjectInfo[] = [];
      await walk(base ? path.join(objects, base) : objects, base, out);
      return out.filter((o) => o.key.startsWith(prefix)).sort((a, b) => (a.key < b.key ? -1 : 1));
    },

    createMultipart(key, opts) {
      objectDir(key);
      return multipart.create(key, opts.partSize);
    },

    uploadPart: (key, uploadId, partNumber, body, size, observe) => multipart.uploadPart(key, uploadId, partNumber, body, size, observe),


    listParts: (key, uploadId) => multipart.listParts(key, uploadId),

    async completeMultipart(key, uploadId, parts) {
      const target = dataFile(key);
      await handles.changing(key, () => multipart.complete(key, uploadId, parts, target));
      // A prefix sweep of an abort may remove the object the moment it appeared.
      const st = await statOrNull(target);
      if (!st) throw new StorageNotFoundError('no such upload');
      return info(key, st);
    },

    abortMultipart: (key, uploadId) => multipart.abort(key, uploadId),
    listMultipartUploads: (prefix) => multipart.list(prefix),


    close() {},
  };

  return driver;
}

function etagOf(st: Stats): string {
  return `"${st.size.toString(16)}-${Math.floor(st.mtimeMs * 1000).toString(16)}-${st.ino.toString(16)}"`;
}

function isNotFound(e: unknown): boolean {
  return (e as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/**
 * Bytes [start, end] of an open file as a stream of pooled chunks (lib/storage/chunk-pool.ts),
 * one read ahead; the file is closed when the stream ends or is destroyed. A file shorter than
 * `end` fails the stream: its reader must not take a short body for a whole one.
 */
function readChunks(handle: FileHandle, start: number, end: number): Readable {
  let pos = start;
  return new Readable({
    highWaterMark: CHUNK,
    read() {
      const want = Math.min(CHUNK, end + 1 - pos);
      if (want <= 0) {
        this.push(null);
        return;
      }
      const buf = takeChunk();
      handle.read(buf, 0, want, pos).then(
        ({ bytesRead }) => {
          if (this.destroyed) return giveChunk(buf);
          if (bytesRead === 0) {
            giveChunk(buf);
            this.destroy(new StorageUnavailableError('the stored object is shorter than its record'));
            return;
          }
          pos += bytesRead;
          this.push(buf.subarray(0, bytesRead));
        },
        (e: Error) => {
          giveChunk(buf);
          this.destroy(e);
        },
      );
    },
    destroy(err, cb) {
      handle.close().then(
        () => cb(err),
        () => cb(err),
      );
    },
  });
}
