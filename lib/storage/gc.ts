import 'server-only';
import { cancelDeletion, finishDeletion, leaseDueDeletions, scheduleDeletion } from '@/db/queries/storage-gc';
import type { Db } from '@/db/client';
import { mapLimit } from '../map-limit';
import type { StorageDriver } from './types';

/** What a deletion touches: the runtime passes itself (lib/runtime.ts sits above the store). */
type Stores = { storage: StorageDriver; db: Db };

/**
 * Prefixes deleted at once: an account's 20 shares, a project's deploys, the janitor's due rows.
 * Each prefix is itself a few listing calls and batched deletes (DeleteObjects, 1,000 keys).
 */
const PREFIXES_AT_ONCE = 8;

export { cancelDeletion, scheduleDeletion };

/** A key ending in "/" is a prefix; anything else names one object. */
async function deleteBytes(rt: Stores, prefix: string): Promise<void> {
  if (prefix.endsWith('/')) await rt.storage.deletePrefix(prefix);
  else await rt.storage.delete(prefix);
}

/**
 * Deletes the bytes of the given scheduled rows now (or of every due row) and drops the
 * rows that succeeded. Failures stay scheduled for the janitor.
 */
export async function runDeletions(rt: Stores, ids?: string[], db: Db = rt.db): Promise<number> {
  if (ids && ids.length === 0) return 0;
  const leased = await leaseDueDeletions(db, ids ? ids.length : 100, 600, ids);
  let done = 0;
  await mapLimit(leased, PREFIXES_AT_ONCE, async (row) => {
    try {
      await deleteBytes(rt, row.prefix);
      await finishDeletion(db, row.id);
      done++;
    } catch (e) {
      console.error(`[htmls] deleting ${row.prefix} failed; the janitor will retry:`, (e as Error).message);
    }
  });
  return done;
}
