import 'server-only';
import type { Readable } from 'node:stream';

export interface ObjectInfo {
  key: string;
  size: number;
  /** Quoted, as S3 sends it; passed through unchanged. */
  etag: string;
  lastModified: Date;
}

/** Inclusive byte offsets, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface GetResult extends ObjectInfo {
  body: Readable;
  range?: ByteRange;
}

export interface PartInfo {
  partNumber: number;
  size: number;
  etag: string;
}

export interface PresignedPart {
  url: string;
  headers?: Record<string, string>;
  expiresAt: Date;
}

/** `transient`: the probe itself failed (store unreachable), so asking again later may help. */
export type CopyProbeResult = { safe: true } | { safe: false; reason: string; transient?: boolean };

/**
 * Moves bytes and nothing else: no quotas, no rules. Every method throws on failure;
 * a missing object or upload is a StorageNotFoundError, an unreachable store a
 * StorageUnavailableError.
 */
export interface StorageDriver {
  readonly kind: 'fs' | 's3';
  /** What this store can do beyond moving bytes, each declared or null (STYLE rule 18). */
  readonly capabilities: StorageCapabilities;
  put(key: string, body: Readable | Buffer, opts?: { size?: number; contentType?: string }): Promise<ObjectInfo>;
  /**
   * The fs store reads 1 MiB chunks from a pool (lib/storage/chunk-pool.ts): write each once,
   * then let it go. The S3 body is the socket's.
   */
  get(key: string, range?: ByteRange): Promise<GetResult>;
  head(key: string): Promise<ObjectInfo | null>;
  delete(key: string): Promise<void>;
  /**
   * Deletes every object, and every unfinished multi-part upload, whose key starts with prefix.
   * No count: counting a share's 500 objects on the fs store cost more than removing them.
   */
  deletePrefix(prefix: string): Promise<void>;
  list(prefix: string): Promise<ObjectInfo[]>;
  /** Every part but the last will have exactly `partSize` bytes (the fs store lays them out by it). */
  createMultipart(key: string, opts: { contentType?: string; partSize: number }): Promise<string>;
  /**
   * Streams exactly `size` bytes of body into part n. `observe`, if given, sees each chunk in
   * order as the store takes it (the caller's checksum), with no stream of its own in between.
   */
  uploadPart(key: string, uploadId: string, partNumber: number, body: Readable, size: number, observe?: (chunk: Buffer) => void): Promise<{ etag: string }>;
  listParts(key: string, uploadId: string): Promise<PartInfo[]>;
  /** `size` of every part, when the caller has them from listParts, spares a store round trip. */
  completeMultipart(key: string, uploadId: string, parts: { partNumber: number; etag: string; size?: number }[]): Promise<ObjectInfo>;
  abortMultipart(key: string, uploadId: string): Promise<void>;
  listMultipartUploads(prefix: string): Promise<{ key: string; uploadId: string }[]>;
  /** Lets go of the store's connections (a no-op where there are none). */
  close(): void;
}

/**
 * A store's optional abilities, the way tus-node-server's DataStore declares its extensions:
 * present with their methods, or null. A caller asks for the ability, not for a method.
 */
export interface StorageCapabilities {
  /**
   * fs: the bytes of a range up to CHUNK (chunk-pool.ts) in one pooled buffer (one positional
   * read, no stream), for a video player's seeks and the ZIP's small entries; like get()'s chunks,
   * write it once, then let it go. A file shorter than the range is a store fault:
   * StorageUnavailableError.
   */
  pooledRange: { read(key: string, range: ByteRange): Promise<Buffer> } | null;
  /** fs: deletes temporary files (and stale upload folders of an older layout) not touched since olderThan. */
  temporaryFiles: { sweep(olderThan: Date): Promise<number> } | null;
  /**
   * S3 with its keys configured: part URLs a browser or client PUTs to the store by itself
   * (direct uploads).
   */
  presignedParts: {
    /** The URL signs `Content-Length: size` too: a body of any other length fails the signature. */
    part(key: string, uploadId: string, partNumber: number, size: number, expiresInSeconds: number): Promise<PresignedPart>;
    /** Whether the store refuses unsigned `x-amz-copy-source` on a presigned part PUT. */
    probeCopy(): Promise<CopyProbeResult>;
  } | null;
  /**
   * S3: a GET of an object that answers with these Content-Disposition and Content-Type
   * (`response-content-disposition`, `response-content-type`): DOWNLOAD_MODE=redirect.
   */
  presignedGet: { get(key: string, opts: { contentDisposition: string; contentType: string; expiresInSeconds: number }): Promise<string> } | null;
  /** S3: the bucket's CORS rules. */
  bucketCors: {
    /** Whether they let a page at `origin` PUT parts and read ETag. */
    allows(origin: string): Promise<boolean>;
    /** Adds a rule for these origins (PUT, any header, ETag exposed). */
    configure(origins: string[]): Promise<void>;
  } | null;
}

export { StorageIncompleteBodyError, StorageInvalidKeyError, StorageInvalidPartError, StorageNotFoundError, StorageUnavailableError } from './errors';
import { StorageInvalidKeyError, StorageNotFoundError } from './errors';

const MAX_KEY_BYTES = 1024;

/** Keys are built from validated parts only; this is the driver's last line of defence. */
export function assertKey(key: string): void {
  const bad =
    !key ||
    Buffer.byteLength(key) > MAX_KEY_BYTES ||
    key.startsWith('/') ||
    key.includes('\\') ||
    /[\u0000-\u001f\u007f]/.test(key) ||
    key.split('/').some((s) => s === '' || s === '.' || s === '..');
  if (bad) throw new StorageInvalidKeyError(`invalid storage key`);
}

/**
 * By name, not instanceof: server.ts (tsx) and the Next bundle each load their own copy of
 * this module, and the one runtime's driver throws the first copy's classes.
 */
export const isStorageNotFound = (e: unknown): boolean => e instanceof StorageNotFoundError;
