import 'server-only';
import { BoundedCache } from '../bounded-cache';

/** Small files and rewritten HTML, keyed by record id and version: never stale. */
export const MAX_CACHED_BYTES = 512 * 1024;
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;

const cache = new BoundedCache<string, Buffer>({ maxEntries: 100_000, maxBytes: MAX_TOTAL_BYTES, sizeOf: (b) => b.length });

export const getCached = (key: string): Buffer | undefined => cache.get(key);

export function putCached(key: string, body: Buffer): void {
  if (body.length > MAX_CACHED_BYTES || cache.has(key)) return;
  cache.set(key, body);
}
