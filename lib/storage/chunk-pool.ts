import 'server-only';

/**
 * Read buffers of the fs store, used again once the socket has taken their bytes.
 *
 * A fresh 1 MiB buffer per read is a fresh mapping of memory whenever malloc hands large blocks
 * to mmap, which it does or not depending on the process's history: a whole download then
 * page-faults every byte, and the same server's download rate varied threefold from one start
 * to the next (docs/performance.md). Reusing a few buffers makes every start the fast one and
 * bounds what concurrent downloads hold.
 *
 * Rule: a pooled chunk is written once, and given back only after that write completed
 * (lib/http/fast.ts does it in the write's callback). A chunk that is dropped instead (a client
 * that left, an error) is simply collected; the pool makes another.
 */
const FREE_MAX = 16;

/** The fs store's read size; a range up to this size is one positional read (the pooledRange capability). */
export const CHUNK = 1024 * 1024;

const { owned, free } = { owned: new WeakSet<ArrayBuffer>(), free: [] as Buffer[] };

/** A CHUNK-sized buffer from the pool (its contents are old bytes). */
export function takeChunk(): Buffer {
  const hit = free.pop();
  if (hit) return hit;
  // Its own ArrayBuffer (not a slice of Node's shared 8 KiB pool), so ownership is exact.
  const buf = Buffer.from(new ArrayBuffer(CHUNK));
  owned.add(buf.buffer);
  return buf;
}

/** Whether a chunk (or a view of one) came from the pool. */
export const isPooled = (chunk: Buffer): boolean => owned.has(chunk.buffer as ArrayBuffer);

/** Gives a written chunk back; a chunk not from the pool is ignored. */
export function giveChunk(chunk: Buffer): void {
  const ab = chunk.buffer as ArrayBuffer;
  if (!owned.has(ab) || free.length >= FREE_MAX || free.some((b) => b.buffer === ab)) return;
  free.push(Buffer.from(ab));
}
