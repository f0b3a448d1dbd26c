import { Readable } from 'node:stream';
import type { StorageDriver } from '../storage/types';
import type { FastReply, FastRequest } from './fast';
import { etagMatches, ifRangeAllows, parseRange } from './range';

export interface Sendable {
  storageKey: string;
  size: number;
  etag: string;
  lastModified: Date;
  headers: Record<string, string>;
  /** When set, the bytes to send instead of reading the store (cached or rewritten). */
  buffer?: Buffer;
}

/**
 * 200/206/304/416 for one object: ETag and If-None-Match, a single Range with If-Range,
 * HEAD without a body. Bytes stream from the store; nothing is read whole.
 */
export async function sendObject(req: FastRequest, storage: StorageDriver, obj: Sendable): Promise<FastReply> {
  const base: Record<string, string> = {
    ...obj.headers,
    ETag: obj.etag,
    'Last-Modified': obj.lastModified.toUTCString(),
    'Accept-Ranges': 'bytes',
  };
  if (etagMatches(req.header('if-none-match'), obj.etag)) {
    return { status: 304, headers: base, body: null };
  }
  const size = obj.buffer ? obj.buffer.length : obj.size;
  const wanted = ifRangeAllows(req.header('if-range'), obj.etag, obj.lastModified)
    ? parseRange(req.header('range'), size)
    : ({ kind: 'full' } as const);
  if (wanted.kind === 'unsatisfiable') {
    return {
      status: 416,
      headers: { ...base, 'Content-Range': `bytes */${size}`, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': '0' },
      body: null,
    };
  }
  const head = req.method === 'HEAD';
  if (wanted.kind === 'partial') {
    const { start, end } = wanted.range;
    const headers = { ...base, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Content-Length': String(end - start + 1) };
    if (head) return { status: 206, headers, body: null };
    const body = obj.buffer ? obj.buffer.subarray(start, end + 1) : (await storage.get(obj.storageKey, wanted.range)).body;
    return { status: 206, headers, body };
  }
  const headers = { ...base, 'Content-Length': String(size) };
  if (head) return { status: 200, headers, body: null };
  if (obj.buffer) return { status: 200, headers, body: obj.buffer };
  if (size === 0) return { status: 200, headers, body: Buffer.alloc(0) };
  return { status: 200, headers, body: (await storage.get(obj.storageKey)).body };
}

/** Reads a whole (small) object into memory: only for objects under the cache limit. */
export async function readSmall(storage: StorageDriver, key: string, size: number): Promise<Buffer> {
  if (size === 0) return Buffer.alloc(0);
  const { body } = await storage.get(key);
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

/** The object's bytes with `text` inserted at `offset`, streamed from two range reads. */
export function streamWithInsert(storage: StorageDriver, key: string, size: number, offset: number, text: string): Readable {
  return Readable.from(
    (async function* () {
      if (offset > 0) yield* (await storage.get(key, { start: 0, end: offset - 1 })).body;
      yield Buffer.from(text);
      if (offset < size) yield* (await storage.get(key, { start: offset, end: size - 1 })).body;
    })(),
  );
}
