import 'server-only';
import { Transform, type Readable } from 'node:stream';
import type { NewHostedFile } from '@/db/queries/deploys';
import { randomString } from '../auth/crypto';
import { AppError } from '../errors';
import { contentTypeFor, isHtmlType } from '../mime';
import { pathKey, sanitizeRelativePath } from '../paths/relative-path';
import type { Runtime } from '../runtime';
import { cancelDeletion, scheduleDeletion } from '../storage/gc';
import { batchPrefixes, compressedKey, hostedFileKey } from '../storage/keys';
import { compress, compressStream, formatEncodings, isCompressible, MAX_COMPRESS_BYTES, MIN_COMPRESS_BYTES, type StoredEncoding } from './compression';
import { newBuildFacts, noteBuildFile } from './build-check';
import { HOSTED_LIMITS } from './limits';
import { applyInjection, planInjection, SCAN_BYTES, streamWithInsert } from './rewrite-html';
import { readFirstBytes } from '../storage/read-first-bytes';

/** An upload that has not committed after this long is swept by the janitor. */
const UPLOAD_GUARD_MS = 3 * 3600 * 1000;
/** Files up to this size are kept in memory while stored, to compress without reading back. */
const KEEP_BYTES = 4 * 1024 * 1024;

/**
 * The files of one upload on their way into the store, under a fresh batch prefix that no
 * live record points into. Nothing here is visible until publishDeploy commits; discard()
 * deletes what was written (and a guard row lets the janitor do it after a crash).
 */
export class StagedUpload {
  readonly batch = randomString(10);
  readonly files: NewHostedFile[] = [];
  /** What the HTML and scripts say about where the build expects to live (upload warnings). */
  readonly facts = newBuildFacts();
  private keys = new Set<string>();
  private total = 0;
  private guardIds: string[] = [];
  slug?: string;
  /** The stream being stored, destroyed when the upload fails. */
  active?: Readable;

  constructor(private rt: Runtime) {}

  async begin(slug: string): Promise<void> {
    this.guardIds = await scheduleDeletion(this.rt.db, batchPrefixes(slug, this.batch), new Date(Date.now() + UPLOAD_GUARD_MS));
    this.slug = slug;
  }

  /** Checks the path (unique after NFC and case folding) before any byte is stored. */
  claim(rawPath: string): string {
    const path = sanitizeRelativePath(rawPath);
    const key = pathKey(path);
    if (this.keys.has(key)) throw new AppError('duplicate_path', `The path "${path}" appears twice in this upload`);
    if (this.files.length >= HOSTED_LIMITS.files) throw new AppError('too_many_files', `At most ${HOSTED_LIMITS.files} files per upload`);
    this.keys.add(key);
    return path;
  }

  /** Stores one file and its compressed copies. */
  async add(path: string, stream: Readable): Promise<void> {
    const rt = this.rt;
    const contentType = contentTypeFor(path);
    const kept: Buffer[] = [];
    let keptBytes = 0;
    const tap = new Transform({
      transform: (chunk: Buffer, _enc, cb) => {
        this.total += chunk.length;
        if (this.total > HOSTED_LIMITS.totalBytes) {
          return cb(new AppError('body_too_large', `An upload may hold at most ${HOSTED_LIMITS.totalBytes} bytes`));
        }
        if (keptBytes <= KEEP_BYTES) {
          kept.push(chunk);
          keptBytes += chunk.length;
        }
        cb(null, chunk);
      },
    });
    stream.on('error', (e) => tap.destroy(e));
    // The store reads the tap once it has opened its target; an error before that must not go
    // unheard (the reader still sees it: a destroyed stream throws when iterated).
    tap.on('error', () => {});
    const key = hostedFileKey(this.slug!, this.batch, path);
    this.active = stream;
    const stored = await rt.storage.put(key, stream.pipe(tap), { contentType });
    this.active = undefined;
    const body = keptBytes === stored.size ? Buffer.concat(kept) : null;
    if (body) noteBuildFile(this.facts, path, contentType, body);
    const encodings = await this.compressCopies(key, contentType, stored.size, body);
    this.files.push({ path, pathKey: pathKey(path), storageKey: key, size: stored.size, contentType, etag: stored.etag, encodings: formatEncodings(encodings) });
  }

  /**
   * Brotli and gzip copies of a text file, made once here rather than per request. HTML is
   * compressed as served (with its injected base and viewport). A copy is kept only when it
   * saves at least 5%.
   */
  private async compressCopies(key: string, contentType: string, size: number, body: Buffer | null): Promise<StoredEncoding[]> {
    if (!isCompressible(contentType) || size < MIN_COMPRESS_BYTES || size > MAX_COMPRESS_BYTES) return [];
    const storage = this.rt.storage;
    const out: StoredEncoding[] = [];
    if (body) {
      const source = isHtmlType(contentType) ? applyInjection(body, planInjection(body)) : body;
      for (const encoding of ['br', 'gzip'] as const) {
        const packed = await compress(source, encoding);
        if (packed.length > source.length * 0.95) continue;
        await storage.put(compressedKey(key, encoding), packed, { size: packed.length });
        out.push({ encoding, size: packed.length });
      }
      return out;
    }
    // Too big to hold: read it back and compress as a stream.
    let insert: { offset: number; text: string } | null = null;
    if (isHtmlType(contentType)) insert = planInjection(await readFirstBytes(storage, key, Math.min(size, SCAN_BYTES)));
    for (const encoding of ['br', 'gzip'] as const) {
      const source = insert ? streamWithInsert(storage, key, size, insert.offset, insert.text) : (await storage.get(key)).body;
      const packed = await storage.put(compressedKey(key, encoding), source.pipe(compressStream(encoding, size)));
      if (packed.size > size * 0.95) await storage.delete(compressedKey(key, encoding));
      else out.push({ encoding, size: packed.size });
    }
    return out;
  }

  /** Deletes every object this upload wrote and drops its guard. */
  async discard(): Promise<void> {
    if (!this.slug) return;
    for (const prefix of batchPrefixes(this.slug, this.batch)) await this.rt.storage.deletePrefix(prefix).catch(() => {});
    await cancelDeletion(this.rt.db, this.guardIds).catch(() => {});
  }

  get guards(): string[] {
    return this.guardIds;
  }
}
