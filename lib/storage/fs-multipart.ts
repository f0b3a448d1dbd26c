import 'server-only';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { writeAt, type WriteState } from './fs-write';
import { StorageIncompleteBodyError, StorageInvalidPartError, StorageNotFoundError, type PartInfo } from './types';
import { BoundedCache } from '../bounded-cache';

/**
 * The fs store's multi-part uploads. An upload lives at `multipart/<key>/\upload-<id>/`, so a
 * group's uploads sit under the group's own prefix: aborting or deleting a group touches only
 * its folder, never the whole area. (A backslash is in no key, so the folder cannot collide
 * with a longer key.)
 *
 * Every part but the last has the size given at creation, so part n is written straight into
 * its place in one sparse `data` file at (n - 1) × partSize, and completing is a rename: no byte
 * is read or written a second time. A small marker file per part records its size and ETag once
 * its last byte is written; a part cut short by a crash has no marker and is sent again.
 *
 * Writers of one upload are tracked in this process so that complete and abort can stop them
 * first: no byte lands in a published object, nor in a folder being removed. (The fs store is
 * single-instance: one process owns its directory.)
 */
const UPLOAD_ID = /^[0-9a-f]{32}$/;
const UPLOAD_DIR = /^\\upload-([0-9a-f]{32})$/;
const MAX_KNOWN_UPLOADS = 10_000;

interface Writer {
  stop: (e: Error) => void;
  done: Promise<unknown>;
}

/**
 * What this process knows of an upload it created: the parts whose markers it wrote (kept
 * exactly as on disk: set after a marker is written, dropped when one is removed) and how far
 * any write reached into the data file. The directory is this process's alone, so for such an
 * upload this is what the disk holds, and listing and completing need not read it back. An
 * upload created before a restart (or forgotten by the bound) is read from disk as before.
 */
interface Ledger {
  parts: Map<number, PartInfo>;
  extent: number;
}

export function createFsMultipart(root: string, resolveKey: (key: string) => string) {
  const area = path.resolve(root, 'multipart');
  const writers = new Map<string, Set<Writer>>();
  const closing = new Set<string>();

  const uploadDir = (key: string, uploadId: string) => {
    if (!UPLOAD_ID.test(uploadId)) throw new StorageNotFoundError('no such upload');
    resolveKey(key); // validates the key
    return path.join(area, key, `\\upload-${uploadId}`);
  };
  const marker = (dir: string, n: number) => path.join(dir, `part-${String(n).padStart(5, '0')}`);

  /**
   * An upload's part size never changes, and this process owns the directory: it is read from
   * `meta` once per upload, not once per part: a read while the previous part is being written
   * back can take milliseconds (docs/performance.md). Forgotten when the upload ends; bounded
   * for uploads that never end here.
   */
  const partSizes = new BoundedCache<string, number>({ maxEntries: MAX_KNOWN_UPLOADS });
  const ledgers = new BoundedCache<string, Ledger>({ maxEntries: MAX_KNOWN_UPLOADS });
  async function partSizeOf(dir: string): Promise<number> {
    const known = partSizes.get(dir);
    if (known !== undefined) return known;
    const text = await readNote(path.join(dir, 'meta')).catch((e) => {
      throw isNotFound(e) ? new StorageNotFoundError('no such upload') : e;
    });
    if (text === null) throw new StorageNotFoundError('no such upload');
    const { partSize } = JSON.parse(text) as { partSize: number };
    if (!closing.has(dir)) remember(dir, partSize);
    return partSize;
  }
  function remember(dir: string, partSize: number) {
    partSizes.set(dir, partSize);
  }
  function forgetUploads(dirOrParent: string) {
    const under = (d: string) => d === dirOrParent || d.startsWith(dirOrParent + path.sep);
    partSizes.deleteWhere(under);
    ledgers.deleteWhere(under);
  }

  /** Stops every writer of the upload and waits until their files are closed. */
  async function quiesce(dir: string): Promise<void> {
    closing.add(dir);
    partSizes.delete(dir);
    const active = [...(writers.get(dir) ?? [])];
    for (const w of active) w.stop(new StorageNotFoundError('the upload was completed or aborted'));
    await Promise.allSettled(active.map((w) => w.done));
  }

  async function listParts(key: string, uploadId: string): Promise<PartInfo[]> {
    const dir = uploadDir(key, uploadId);
    await partSizeOf(dir);
    return partsIn(dir);
  }

  /** The parts whose markers are written, of an upload known to exist (markers read at once). */
  async function partsIn(dir: string): Promise<PartInfo[]> {
    const known = ledgers.get(dir);
    if (known) return [...known.parts.values()].sort((a, b) => a.partNumber - b.partNumber);
    const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => /^part-\d{5}$/.test(n));
    const parts = await Promise.all(
      names.map(async (name) => {
        const [size, etag] = (await readNote(path.join(dir, name)))?.split(' ') ?? [];
        return etag ? { partNumber: Number(name.slice(5)), size: Number(size), etag } : null;
      }),
    );
    return parts.filter((p): p is PartInfo => p !== null).sort((a, b) => a.partNumber - b.partNumber);
  }

  /**
   * A completed upload's folder holds its note and its parts' markers: removed by name (three
   * calls for a one-part file, where a recursive removal also stats and lists), and recursively
   * when anything else is there.
   */
  async function removeUploadDir(dir: string, parts: number): Promise<void> {
    try {
      await Promise.all([fs.unlink(path.join(dir, 'meta')), ...Array.from({ length: parts }, (_, i) => fs.unlink(marker(dir, i + 1)))]);
      await fs.rmdir(dir);
    } catch {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  return {
    async create(key: string, partSize: number): Promise<string> {
      const uploadId = randomBytes(16).toString('hex');
      const dir = uploadDir(key, uploadId);
      // The key's folder, then the upload's: two calls where the folders above exist (the
      // group's other files), where a recursive mkdir of the whole path tries it first (three).
      await fs.mkdir(path.dirname(dir)).catch(async (e) => {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') return;
        if (!isNotFound(e)) throw e;
        await fs.mkdir(path.dirname(dir), { recursive: true });
      });
      await fs.mkdir(dir);
      await writeNote(path.join(dir, 'meta'), JSON.stringify({ partSize }));
      remember(dir, partSize);
      ledgers.set(dir, { parts: new Map(), extent: 0 });
      return uploadId;
    },

    async uploadPart(key: string, uploadId: string, partNumber: number, body: Readable, size: number, observe?: (chunk: Buffer) => void): Promise<{ etag: string }> {
      const dir = uploadDir(key, uploadId);
      if (closing.has(dir)) throw new StorageNotFoundError('no such upload');
      // Registered before the first await, so a complete or abort that starts now waits for it.
      const progress: WriteState = { wrote: false, stopped: null, end: 0 };
      const work = (async () => {
        const partSize = await partSizeOf(dir);
        if (size > partSize) throw new Error(`part ${partNumber} is ${size} bytes, more than the upload's part size ${partSize}`);
        const known = ledgers.get(dir);
        try {
          await writeAt(path.join(dir, 'data'), body, (partNumber - 1) * partSize, size, progress, observe);
        } catch (e) {
          // The part's bytes on disk are no longer what an earlier marker describes. The upload is
          // read from disk from now on: a send of the same part overlapping this one may write
          // its marker while this removal runs, and only the disk says which of the two won.
          if (progress.wrote) {
            ledgers.delete(dir);
            await fs.rm(marker(dir, partNumber), { force: true });
          }
          throw e;
        } finally {
          if (known) known.extent = Math.max(known.extent, progress.end);
        }
        const etag = `"${size.toString(16)}-${randomBytes(8).toString('hex')}"`;
        await writeNote(marker(dir, partNumber), `${size} ${etag}`);
        known?.parts.set(partNumber, { partNumber, size, etag });
        return { etag };
      })();
      const writer: Writer = {
        stop: (e) => {
          progress.stopped = e;
          body.destroy(e);
        },
        done: work.catch(() => {}),
      };
      const set = writers.get(dir) ?? new Set();
      writers.set(dir, set.add(writer));
      try {
        return await work;
      } catch (e) {
        if (!(e instanceof StorageIncompleteBodyError) && isNotFound(e)) throw new StorageNotFoundError('no such upload');
        throw e;
      } finally {
        set.delete(writer);
        if (set.size === 0) writers.delete(dir);
      }
    },

    listParts,

    /**
     * Checks the named parts against the markers (parts 1..N, all but the last full), cuts the
     * data file to their total and renames it into place. A second complete finds no upload.
     */
    async complete(key: string, uploadId: string, parts: { partNumber: number; etag: string }[], target: string): Promise<void> {
      const dir = uploadDir(key, uploadId);
      if (closing.has(dir)) throw new StorageNotFoundError('no such upload');
      // Read while it is still remembered: quiesce() forgets it (one read of `meta` per file saved).
      const partSize = await partSizeOf(dir);
      const known = ledgers.get(dir);
      // Checked again after the await: the first of two completes has marked it closing.
      if (closing.has(dir)) throw new StorageNotFoundError('no such upload');
      await quiesce(dir);
      try {
        const stored = new Map((await partsIn(dir)).map((p) => [p.partNumber, p]));
        const ordered = [...parts].sort((a, b) => a.partNumber - b.partNumber);
        if (ordered.length === 0) throw new StorageInvalidPartError('no parts to complete');
        let total = 0;
        ordered.forEach((p, i) => {
          const s = stored.get(p.partNumber);
          if (!s || s.etag !== p.etag) throw new StorageInvalidPartError(`part ${p.partNumber} is not stored as named`);
          if (p.partNumber !== i + 1) throw new StorageInvalidPartError('parts must be numbered 1, 2, 3… without gaps');
          if (i < ordered.length - 1 && s.size !== partSize) throw new StorageInvalidPartError(`part ${p.partNumber} is smaller than the part size`);
          total += s.size;
        });
        const data = path.join(dir, 'data');
        // Every part opened the data file (an empty one too), so it exists: one call, not three;
        // none when no write of this process reached past the parts named (the file's length).
        if (known?.extent !== total) {
          await fs.truncate(data, total).catch(async (e) => {
            if (!isNotFound(e)) throw e;
            await (await fs.open(data, constants.O_WRONLY | constants.O_CREAT)).close();
            await fs.truncate(data, total);
          });
        }
        // The target's folder usually exists (the group's other files): made only when missing.
        await fs.rename(data, target).catch(async (e) => {
          if (!isNotFound(e)) throw e;
          await fs.mkdir(path.dirname(target), { recursive: true });
          await fs.rename(data, target);
        });
        await removeUploadDir(dir, ordered.length);
      } catch (e) {
        // An abort (or a prefix sweep) that removed the upload's folder meanwhile: the upload is
        // gone, as on S3 (NoSuchUpload), not an fs failure (issue 22, item 9).
        throw isNotFound(e) ? new StorageNotFoundError('no such upload') : e;
      } finally {
        ledgers.delete(dir);
        closing.delete(dir);
      }
    },

    async abort(key: string, uploadId: string): Promise<void> {
      if (!UPLOAD_ID.test(uploadId)) return;
      const dir = uploadDir(key, uploadId);
      await quiesce(dir);
      ledgers.delete(dir);
      try {
        await fs.rm(dir, { recursive: true, force: true });
        await pruneEmpty(path.dirname(dir), area);
      } finally {
        closing.delete(dir);
      }
    },

    /** Uploads whose key starts with prefix: only the folders under the prefix are read. */
    async list(prefix: string): Promise<{ key: string; uploadId: string }[]> {
      const cut = prefix.lastIndexOf('/');
      const base = cut >= 0 ? prefix.slice(0, cut) : '';
      if (base) resolveKey(base);
      const out: { key: string; uploadId: string }[] = [];
      const walk = async (dir: string, key: string) => {
        const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
        for (const e of entries) {
          if (!e.isDirectory()) continue;
          const m = UPLOAD_DIR.exec(e.name);
          if (m) {
            if (key.startsWith(prefix)) out.push({ key, uploadId: m[1] });
          } else if (!UPLOAD_ID.test(e.name) || key) {
            await walk(path.join(dir, e.name), key ? `${key}/${e.name}` : e.name);
          }
        }
      };
      await walk(base ? path.join(area, base) : area, base);
      return out;
    },

    /** Deletes a whole prefix folder (`shared/<group>/`) after stopping its writers. */
    async deletePrefixFolder(prefix: string): Promise<void> {
      const dir = path.join(area, prefix.slice(0, -1));
      const mine = [...writers.keys()].filter((d) => d.startsWith(dir + path.sep));
      forgetUploads(dir);
      await Promise.all(mine.map(quiesce));
      try {
        await fs.rm(dir, { recursive: true, force: true });
        await pruneEmpty(path.dirname(dir), area);
      } finally {
        for (const d of mine) closing.delete(d);
      }
    },

    /** Upload folders of the layout before this one (`multipart/<id>/key`), once stale. */
    async sweepLegacy(olderThan: Date): Promise<number> {
      let n = 0;
      for (const name of await fs.readdir(area).catch(() => [] as string[])) {
        if (!UPLOAD_ID.test(name)) continue;
        const st = await fs.stat(path.join(area, name, 'key')).catch(() => null);
        if (st && st.mtime < olderThan) {
          await fs.rm(path.join(area, name), { recursive: true, force: true });
          n++;
        }
      }
      return n;
    },
  };
}

const isNotFound = (e: unknown) => (e as NodeJS.ErrnoException)?.code === 'ENOENT';

/**
 * Removes now-empty parent folders up to the key family (`shared/`, `files/`), which stays: a
 * concurrent mkdir -p of another group must not lose the folder it is about to create in.
 */
/**
 * An upload's small notes (`meta`, and each part's marker "size etag") are symbolic links whose
 * target is the text: created whole in one call (a reader sees all of it or nothing, as the
 * write-then-rename of a file gave, in one call instead of four) and read in one. A note that
 * exists is replaced through a temporary link and a rename. Notes written as files by an older
 * version are still read.
 */
async function writeNote(file: string, text: string): Promise<void> {
  try {
    await fs.symlink(text, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const tmp = `${file}.${randomBytes(6).toString('hex')}`;
    await fs.symlink(text, tmp);
    await fs.rename(tmp, file);
  }
}

/** A note's text; null when it is gone. */
async function readNote(file: string): Promise<string | null> {
  try {
    return await fs.readlink(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EINVAL') return fs.readFile(file, 'utf8').catch(() => null);
    if (code === 'ENOENT') return null;
    throw e;
  }
}

export async function pruneEmpty(dir: string, root: string): Promise<void> {
  let current = dir;
  while (current.startsWith(root + path.sep) && path.relative(root, current).includes(path.sep)) {
    try {
      await fs.rmdir(current);
    } catch {
      return;
    }
    current = path.dirname(current);
  }
}
