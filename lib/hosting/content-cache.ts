import 'server-only';
import { BoundedCache } from '../bounded-cache';
import { perRuntime, type Runtime } from '../runtime';

/** Small files and rewritten HTML, keyed by record id and version: never stale. */
export const MAX_CACHED_BYTES = 512 * 1024;
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;

/** Each service's: its keys name objects of its own store. */
const cacheOf = perRuntime(() => new BoundedCache<string, Buffer>({ maxEntries: 100_000, maxBytes: MAX_TOTAL_BYTES, sizeOf: (b) => b.length }));

export const getCached = (rt: Runtime, key: string): Buffer | undefined => cacheOf(rt).get(key);

export function putCached(rt: Runtime, key: string, body: Buffer): void {
  const cache = cacheOf(rt);
  if (body.length > MAX_CACHED_BYTES || cache.has(key)) return;
  cache.set(key, body);
}
