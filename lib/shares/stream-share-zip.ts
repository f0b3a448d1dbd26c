import 'server-only';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import type { ShareItemRow } from '@/db/schema';
import { CHUNK, giveChunk } from '../storage/chunk-pool';
import type { ByteRange, StorageDriver } from '../storage/types';
import { dataDescriptor, localHeader, zipTail } from '../zip/zip-layout';
import type { ShareZip } from './plan-share-zip';

/** The CRC-32 of each entry as far as known: folders and empty files 0, files their cached value or null. */
export const knownCrcs = (zip: ShareZip): (number | null)[] =>
  zip.items.map((it) => (it === null || Number(it.size) === 0 ? 0 : (it.crc32 ?? null)));

/**
 * Store GETs sent ahead of the file being streamed: on S3 a GET's first byte costs a round trip,
 * which small files would wait on in turn (each holds at most a socket's buffer); on fs an open
 * costs little, and each read ahead would hold its bytes for no measurable gain in rate
 * (docs/performance.md).
 */
const readAhead = (storage: StorageDriver) => (storage.kind === 's3' ? 2 : 0);

/**
 * Only reads this small are sent ahead, and each is read whole into memory at once, so its store
 * socket goes back to the pool: a ZIP whose client stopped reading holds one store read, never
 * the reads ahead too (issue 22, item 1). A large file's first-byte wait is small beside its transfer.
 */
const AHEAD_MAX_BYTES = 256 * 1024;

async function readWhole(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Remembers a CRC-32 once computed (share_items.crc32), so the next reader need not compute it. */
type SaveCrc = (item: ShareItemRow, crc: number) => void;

/**
 * Bytes [range.start, range.end] of a planned share ZIP, streamed: headers are rebuilt, stored
 * bytes are range reads of the objects, nothing is buffered beyond one chunk and the central
 * directory (about 100 bytes per entry).
 *
 * CRC-32s: a data descriptor and the central directory need each file's CRC. It is taken from
 * share_items.crc32 when known; a file whose whole data lies in the range is hashed while it
 * streams; otherwise (a resumed download that starts inside or after a file never read whole)
 * the server reads that object once — its bytes go nowhere — and caches the result. So a
 * resume after a first full download costs nothing extra; a resume on a cold share reads every
 * file before the range once.
 */
export function streamShareZip(storage: StorageDriver, zip: ShareZip, range: ByteRange, crcs: (number | null)[], saveCrc: SaveCrc): Readable {
  const { plan, items } = zip;

  const crcOf = async (i: number): Promise<number> => {
    const known = crcs[i];
    if (known != null) return known;
    const item = items[i]!;
    let crc = 0;
    for await (const chunk of (await storage.get(item.storageKey)).body) {
      crc = crc32(chunk as Buffer, crc);
      giveChunk(chunk as Buffer); // its bytes go nowhere else
    }
    crcs[i] = crc;
    saveCrc(item, crc);
    return crc;
  };

  /** The part of `buf`, which sits at archive offset `at`, inside the range. */
  const clip = (buf: Buffer, at: number) =>
    buf.subarray(Math.max(0, range.start - at), Math.min(buf.length, range.end + 1 - at));
  const overlaps = (at: number, length: number) => length > 0 && at <= range.end && at + length > range.start;

  // The store reads this range needs, in order; on S3 the next GETs go out while a file streams.
  const reads: { i: number; bytes: ByteRange; whole: boolean }[] = [];
  plan.entries.forEach((e, i) => {
    if (!overlaps(e.dataStart, e.size)) return;
    const start = Math.max(range.start, e.dataStart) - e.dataStart;
    const end = Math.min(range.end, e.dataStart + e.size - 1) - e.dataStart;
    reads.push({ i, bytes: { start, end }, whole: start === 0 && end === e.size - 1 });
  });
  /**
   * Read n: one pooled buffer where the fs store can read it at once (up to a chunk), a buffer
   * read whole when it is a read ahead, else a stream.
   */
  const pooled = storage.capabilities.pooledRange;
  const get = (n: number, early: boolean): Promise<Readable | Buffer> => {
    const { i, bytes, whole } = reads[n]!;
    const key = items[i]!.storageKey;
    const stream = () => storage.get(key, whole ? undefined : bytes).then((g) => g.body);
    const body =
      pooled && bytes.end - bytes.start < CHUNK ? pooled.read(key, bytes) : early ? stream().then(readWhole) : stream();
    body.catch(() => undefined); // a failure surfaces where the body is awaited
    return body;
  };
  const small = (n: number) => reads[n]!.bytes.end - reads[n]!.bytes.start < AHEAD_MAX_BYTES;
  const readsAhead = readAhead(storage);
  let next = 0;
  let sent = 0;
  const ahead: Promise<Readable | Buffer>[] = [];
  /** Called when the entry `next` begins, that is when the client has read everything before it. */
  const open = (): Promise<Readable | Buffer> => {
    for (; sent < reads.length && sent <= next + readsAhead; sent++) {
      const early = sent > next;
      if (early && !small(sent)) break; // read when its turn comes
      ahead.push(get(sent, early));
    }
    next++;
    return ahead.shift()!;
  };

  async function* bytes(): AsyncGenerator<Buffer> {
    try {
      yield* entries();
    } finally {
      // A client that left (or an error) must not leave the read ahead open.
      for (const body of ahead) body.then((b) => (Buffer.isBuffer(b) ? undefined : b.destroy()), () => undefined);
    }
  }

  async function* entries(): AsyncGenerator<Buffer> {
    for (let i = 0; i < plan.entries.length; i++) {
      const e = plan.entries[i]!;
      const end = e.dataStart + e.size + e.descriptorLength;
      if (end <= range.start) continue;
      if (e.offset > range.end) return;
      if (overlaps(e.offset, e.headerLength)) yield clip(localHeader(e), e.offset);
      if (overlaps(e.dataStart, e.size)) {
        const item = items[i]!;
        const { whole } = reads[next]!;
        const body = await open();
        const chunks: AsyncIterable<Buffer> | Buffer[] = Buffer.isBuffer(body) ? [body] : (body as AsyncIterable<Buffer>);
        if (whole && crcs[i] == null) {
          let crc = 0;
          for await (const chunk of chunks) {
            crc = crc32(chunk, crc);
            yield chunk;
          }
          crcs[i] = crc;
          saveCrc(item, crc);
        } else {
          yield* chunks;
        }
      }
      if (overlaps(e.dataStart + e.size, e.descriptorLength)) {
        yield clip(dataDescriptor(e, await crcOf(i)), e.dataStart + e.size);
      }
    }
    if (overlaps(plan.centralOffset, plan.tailLength)) {
      for (let i = 0; i < items.length; i++) await crcOf(i);
      yield clip(zipTail(plan, (i) => crcs[i]!), plan.centralOffset);
    }
  }

  // No read-ahead of its own: the store stream below already reads ahead (a chunk on fs).
  return Readable.from(bytes(), { objectMode: false, highWaterMark: 0 });
}
