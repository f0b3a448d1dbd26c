import 'server-only';
import { createWriteStream } from 'node:fs';
import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry } from 'yauzl';
import { isJunk } from '../client/collect-files';
import { isPrivatePath } from '../client/private-paths';
import { AppError, badRequest } from '../errors';
import { HOSTED_LIMITS } from './limits';
import type { StagedUpload } from './stage-files';
import { StorageUnavailableError } from '../storage/errors';

/** A zip upload spooled to a temporary file: a zip's directory sits at its end. */
export interface SpooledZip {
  file: string;
  name: string;
  remove(): Promise<void>;
}

const SPOOL_PREFIX = 'htmls-zip-';
/**
 * This process's spools in use: the sweep never takes one, however long its upload runs. One set
 * for the process: Next's bundle writes spools (POST /api/upload), the compiled server's janitor
 * sweeps, and each loads its own copy of this module.
 */
const liveSpools = new Set<string>();

/** Writes the uploaded zip to a private temporary folder, refusing more than `limit` bytes. */
export async function spoolZip(stream: Readable, name: string, limit: number): Promise<SpooledZip> {
  const dir = await mkdtemp(path.join(os.tmpdir(), SPOOL_PREFIX));
  liveSpools.add(dir);
  const file = path.join(dir, 'upload.zip');
  const remove = () => rm(dir, { recursive: true, force: true }).finally(() => liveSpools.delete(dir));
  let size = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (size > limit) return cb(new AppError('body_too_large', `An upload may hold at most ${limit} bytes`));
      cb(null, chunk);
    },
  });
  try {
    await pipeline(stream, cap, createWriteStream(file, { mode: 0o600 }));
  } catch (e) {
    await remove();
    throw e;
  }
  return { file, name, remove };
}

/**
 * Janitor (issue 22, item 11): spools a crash left behind in the temporary folder, untouched
 * (folder and file) since `olderThan`. Returns how many were removed.
 */
export async function sweepZipSpools(olderThan: Date): Promise<number> {
  const tmp = os.tmpdir();
  let n = 0;
  for (const name of await readdir(tmp).catch(() => [] as string[])) {
    const dir = path.join(tmp, name);
    if (!name.startsWith(SPOOL_PREFIX) || liveSpools.has(dir)) continue;
    const times = await Promise.all([dir, path.join(dir, 'upload.zip')].map((p) => lstat(p).then((st) => st, () => null)));
    if (!times[0]?.isDirectory()) continue;
    if (times.some((st) => st && st.mtime >= olderThan)) continue;
    await rm(dir, { recursive: true, force: true });
    n++;
  }
  return n;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const isSymlink = (e: Entry) => (e.versionMadeBy >> 8 === 3 || e.versionMadeBy >> 8 === 19) && ((e.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;

/** yauzl's own checks (it refuses `..`, absolute and drive paths before we see them) as our 400s. */
function zipError(e: unknown): unknown {
  if (e instanceof AppError) return e;
  const message = (e as Error)?.message ?? '';
  if (/invalid relative path|absolute path|invalid characters in fileName/i.test(message)) {
    return new AppError('invalid_path', `The zip holds an entry that points outside the site (${message})`);
  }
  if (e instanceof StorageUnavailableError) return e;
  return badRequest('The .zip file could not be read: it is damaged or not a zip');
}

/** A zip made by macOS Finder carries this folder of resource forks beside the real files. */
const isZipJunk = (name: string) => isJunk(name) || name.split('/')[0] === '__MACOSX';

/**
 * Checks every entry of the zip against the limits before storing a byte, then streams each
 * file into the upload. Refused with a 400: entries outside the site (zip-slip), absolute
 * paths, symbolic links, encrypted entries, too many entries, and zip bombs (too large in
 * total or per entry, or expanding more than 100× from 1 MiB on: each entry, and the archive as
 * a whole). Left out as a folder upload leaves them: private paths (`.git/`, `.env*`,
 * `node_modules/`…, returned so the caller can say so) unless `includePrivate`, and system junk
 * (`__MACOSX/`, `.DS_Store`) always.
 */
export async function unpackZip(zip: SpooledZip, staged: StagedUpload, start: () => Promise<void>, opts: { includePrivate: boolean }): Promise<{ skipped: string[] }> {
  const skipped: string[] = [];
  let zipfile: yauzl.ZipFile;
  try {
    zipfile = await yauzl.openPromise(zip.file, { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true });
  } catch (e) {
    throw zipError(e);
  }
  try {
    // Entries left out (a node_modules/) do not count against the files allowed, but there is a bound.
    if (zipfile.entryCount > HOSTED_LIMITS.zipEntries) {
      throw new AppError('too_many_files', `The zip holds ${zipfile.entryCount} entries; at most ${HOSTED_LIMITS.zipEntries} are allowed`);
    }
    const files: { entry: Entry; path: string }[] = [];
    let total = 0;
    try {
      for await (const entry of zipfile.eachEntry()) {
        if (entry.fileName.endsWith('/') || isZipJunk(entry.fileName)) continue; // a folder, or junk
        if (!opts.includePrivate && isPrivatePath(entry.fileName)) {
          skipped.push(entry.fileName);
          continue;
        }
        const name = JSON.stringify(entry.fileName.slice(0, 200));
        if (isSymlink(entry)) throw new AppError('invalid_path', `The zip entry ${name} is a symbolic link; links are not published`);
        if (entry.isEncrypted()) throw badRequest(`The zip entry ${name} is encrypted`);
        if (entry.uncompressedSize > HOSTED_LIMITS.zipEntryBytes) throw new AppError('too_large', `The zip entry ${name} expands past ${HOSTED_LIMITS.zipEntryBytes} bytes`);
        const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
        if (entry.uncompressedSize >= HOSTED_LIMITS.zipRatioFloorBytes && ratio > HOSTED_LIMITS.zipRatio) {
          throw new AppError('too_large', `The zip entry ${name} expands ${Math.round(ratio)}× (a zip bomb?); at most ${HOSTED_LIMITS.zipRatio}× is allowed`);
        }
        if (files.length >= HOSTED_LIMITS.files) throw new AppError('too_many_files', `The zip holds more than ${HOSTED_LIMITS.files} files; at most ${HOSTED_LIMITS.files} are allowed`);
        total += entry.uncompressedSize;
        if (total > HOSTED_LIMITS.totalBytes) throw new AppError('too_large', `The zip expands past ${HOSTED_LIMITS.totalBytes} bytes`);
        files.push({ entry, path: staged.claim(entry.fileName) });
      }
      // The whole archive too: many entries each just under the floor expand without bound.
      const archiveRatio = total / Math.max(1, zipfile.fileSize);
      if (total > HOSTED_LIMITS.zipRatioFloorBytes && archiveRatio > HOSTED_LIMITS.zipRatio) {
        throw new AppError('too_large', `The zip expands ${Math.round(archiveRatio)}× in total (a zip bomb?); at most ${HOSTED_LIMITS.zipRatio}× is allowed`);
      }
    } catch (e) {
      throw zipError(e);
    }
    if (files.length === 0) throw badRequest(skipped.length > 0 ? `The zip holds only private files (${skipped.slice(0, 3).join(', ')}…); send dotfiles=true to publish them` : 'The zip holds no files');
    await start();
    for (const { entry, path: p } of files) {
      const stream = await zipfile.openReadStreamPromise(entry).catch((e) => {
        throw zipError(e);
      });
      // A stream that yields more bytes than its entry declares fails inside yauzl: a 400 too.
      await staged.add(p, stream).catch((e) => {
        throw /bytes in the stream|unexpected EOF|invalid/i.test((e as Error)?.message ?? '') ? zipError(e) : e;
      });
    }
  } finally {
    zipfile.close();
  }
  return { skipped };
}
