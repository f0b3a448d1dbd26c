import 'server-only';
import { processState } from '../process-state';

/** Small files and rewritten HTML, keyed by record id and version: never stale. */
export const MAX_CACHED_BYTES = 512 * 1024;
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;

const state = processState('content-cache', () => ({ entries: new Map<string, Buffer>(), total: 0 }));

export function getCached(key: string): Buffer | undefined {
  const hit = state.entries.get(key);
  if (hit) {
    // Map order is recency order: move the hit to the back.
    state.entries.delete(key);
    state.entries.set(key, hit);
  }
  return hit;
}

export function putCached(key: string, body: Buffer): void {
  if (body.length > MAX_CACHED_BYTES || state.entries.has(key)) return;
  state.entries.set(key, body);
  state.total += body.length;
  for (const [k, v] of state.entries) {
    if (state.total <= MAX_TOTAL_BYTES) break;
    state.entries.delete(k);
    state.total -= v.length;
  }
}
