import 'server-only';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { CHUNK } from '../storage/chunk-pool';
import type { ByteRange, StorageDriver } from '../storage/types';
import type { FastReply, FastRequest } from './fast';
import { HANDOFF_MIN_BYTES, handoffBody } from './handoff';
import { evaluatePreconditions, ifRangeAllows, parseRanges } from './range';

export interface Sendable {
  storageKey: string;
  size: number;
  etag: string;
  lastModified: Date;
  headers: Record<string, string>;
  /** When set, the bytes to send instead of reading the store (cached or rewritten). */
  buffer?: Buffer;
  /** Called once when a GET's body has been sent through the representation's last byte. */
  onComplete?: () => void;
  /** See Representation.admit. */
  admit?: Representation['admit'];
  /** See Representation.onSettle. */
  onSettle?: Representation['onSettle'];
}

/** One representation of a known size whose bytes (or any range of them) can be opened. */
export interface Representation {
  size: number;
  etag: string;
  lastModified: Date;
  /** Content-Type and the rest; ETag, Last-Modified, Accept-Ranges and lengths are added. */
  headers: Record<string, string>;
  /**
   * The bytes of `range` (inclusive), or all of them without one. Never called for HEAD.
   * `part`: one part of a multipart reply, which is always read here (never handed over).
   */
  open(range?: ByteRange, part?: boolean): Promise<Readable | Buffer> | Readable | Buffer;
  /** Called once when a GET's body has been sent through the representation's last byte. */
  onComplete?: () => void;
  /**
   * Called once before a GET's body is opened (never for HEAD, 304, 412 or 416), with whether
   * the bytes sent include byte 0 and how many of the representation's bytes it will send; may
   * refuse by throwing, and returns headers to add (a download ticket's cookie:
   * lib/shares/download-tickets.ts).
   */
  admit?: (startsAtZero: boolean, length: number) => Promise<Record<string, string | string[]>>;
  /**
   * Called once when a GET's 200/206 response is over, with the body bytes sent, whether they
   * reached the representation's last byte, and which of its bytes went out (half-open
   * [start, end) pairs: the download activity log sums a download's ranges without overlaps).
   */
  onSettle?: (sent: number, completed: boolean, covered: [number, number][]) => void;
}

/**
 * 200/206/304/412/416 for one object of the store (or a buffer in place of it).
 * Bytes stream from the store; nothing is read whole.
 */
export function sendObject(req: FastRequest, storage: StorageDriver, obj: Sendable): Promise<FastReply> {
  const buffer = obj.buffer;
  return sendRepresentation(req, {
    size: buffer ? buffer.length : obj.size,
    etag: obj.etag,
    lastModified: obj.lastModified,
    headers: obj.headers,
    onComplete: obj.onComplete,
    admit: obj.admit,
    onSettle: obj.onSettle,
    open: (range, part) => {
      if (buffer) return range ? buffer.subarray(range.start, range.end + 1) : buffer;
      if (obj.size === 0) return Buffer.alloc(0);
      // A range up to a chunk is one positional read into a pooled buffer where the store can
      // (fs): a player's seek costs one read and one socket write, no stream and no allocation.
      const pooled = storage.capabilities.pooledRange;
      if (range && pooled && range.end - range.start < CHUNK) return pooled.read(obj.storageKey, range);
      // The hosted front streams a large object itself: nothing is opened here unless read.
      if (req.handoff && !part && (range ? range.end - range.start + 1 : obj.size) >= HANDOFF_MIN_BYTES) return handoffBody(storage, obj.storageKey, range);
      return storage.get(obj.storageKey, range).then((g) => g.body);
    },
  });
}

/**
 * RFC 9110 §13–14 for any representation (share items, hosted files, the share ZIP):
 * preconditions in the RFC's order (412 / 304), then Range with an exact If-Range: one range is
 * a 206 with Content-Range, several a streamed 206 multipart/byteranges (exact Content-Length,
 * parts opened one after another), none satisfiable a 416 with `bytes *\/size`. HEAD ignores
 * Range (RFC 9110 §14.2) and never has a body.
 */
export async function sendRepresentation(req: FastRequest, rep: Representation): Promise<FastReply> {
  const { size } = rep;
  const base: Record<string, string | string[]> = {
    ...rep.headers,
    ETag: rep.etag,
    'Last-Modified': rep.lastModified.toUTCString(),
    'Accept-Ranges': 'bytes',
  };
  const header = (name: string) => req.header(name);
  const pre = evaluatePreconditions(req.method, header, rep);
  if (pre === 'not-modified') return { status: 304, headers: base, body: null };
  if (pre === 'failed') return { status: 412, headers: { ...withoutBodyHeaders(base), 'Content-Length': '0' }, body: null };
  const head = req.method === 'HEAD';
  const wanted =
    !head && ifRangeAllows(header('if-range'), rep.etag, rep.lastModified)
      ? parseRanges(header('range'), size)
      : ({ kind: 'full' } as const);
  if (wanted.kind === 'unsatisfiable') {
    return {
      status: 416,
      headers: { ...withoutBodyHeaders(base), 'Content-Range': `bytes */${size}`, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': '0' },
      body: null,
    };
  }
  if (!head && rep.admit) {
    const length = wanted.kind === 'full' ? size : wanted.ranges.reduce((n, r) => n + r.end - r.start + 1, 0);
    Object.assign(base, await rep.admit(wanted.kind === 'full' || wanted.ranges.some((r) => r.start === 0), length));
  }
  if (wanted.kind === 'partial' && wanted.ranges.length === 1) {
    const range = wanted.ranges[0];
    const headers = { ...base, 'Content-Range': `bytes ${range.start}-${range.end}/${size}`, 'Content-Length': String(range.end - range.start + 1) };
    const reachesEnd = range.end === size - 1;
    return { status: 206, headers, body: await rep.open(range), onComplete: reachesEnd ? rep.onComplete : undefined, onSettle: settle(rep, reachesEnd, range.end - range.start + 1, (sent) => [[range.start, range.start + sent]]) };
  }
  if (wanted.kind === 'partial') {
    const { ranges } = wanted;
    const type = rep.headers['Content-Type'] ?? 'application/octet-stream';
    const boundary = randomBytes(12).toString('hex');
    const heads = ranges.map((r, i) =>
      Buffer.from(`${i === 0 ? '' : '\r\n'}--${boundary}\r\nContent-Type: ${type}\r\nContent-Range: bytes ${r.start}-${r.end}/${size}\r\n\r\n`),
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const length = heads.reduce((n, h, i) => n + h.length + ranges[i].end - ranges[i].start + 1, tail.length);
    const headers: Record<string, string | string[]> = {
      ...base,
      'Content-Type': `multipart/byteranges; boundary=${boundary}`,
      'Content-Length': String(length),
    };
    const body = Readable.from(
      (async function* () {
        for (let i = 0; i < ranges.length; i++) {
          yield heads[i];
          const part = await rep.open(ranges[i], true);
          if (Buffer.isBuffer(part)) yield part;
          else yield* part;
        }
        yield tail;
      })(),
      { objectMode: false },
    );
    const reachesEnd = ranges[ranges.length - 1].end === size - 1;
    // Parts and boundaries interleave: a multipart answer covers its ranges when it went out whole.
    const covered = (sent: number): [number, number][] => (sent >= length ? ranges.map((r) => [r.start, r.end + 1]) : []);
    return { status: 206, headers, body, onComplete: reachesEnd ? rep.onComplete : undefined, onSettle: settle(rep, reachesEnd, length, covered) };
  }
  const headers = { ...base, 'Content-Length': String(size) };
  if (head) return { status: 200, headers, body: null };
  return { status: 200, headers, body: await rep.open(), onComplete: rep.onComplete, onSettle: settle(rep, true, size, (sent) => [[0, sent]]) };
}

/** The reply's onSettle for rep.onSettle: complete when it reaches the end and all `length` bytes went out. */
function settle(
  rep: Representation,
  reachesEnd: boolean,
  length: number,
  covered: (sent: number) => [number, number][],
): ((sent: number) => void) | undefined {
  const onSettle = rep.onSettle;
  return onSettle && ((sent) => onSettle(sent, reachesEnd && sent >= length, covered(sent)));
}

/** A 412/416 has no body of the representation: its type and name go. */
function withoutBodyHeaders(h: Record<string, string | string[]>): Record<string, string | string[]> {
  const { 'Content-Type': _t, 'Content-Disposition': _d, 'Content-Encoding': _e, ...rest } = h;
  return rest;
}
