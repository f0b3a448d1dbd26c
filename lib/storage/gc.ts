import 'server-only';
import { cancelDeletion, finishDeletion, leaseDueDeletions, scheduleDeletion } from '@/db/queries/storage-gc';
import type { Db } from '@/db/client';
import { mapLimit } from '../map-limit';
import type { Runtime } from '../runtime';

/**
 * Prefixes deleted at once: an account's 20 shares, a project's deploys, the janitor's due rows.
 * Each prefix is itself a few listing calls and batched deletes (DeleteObjects, 1,000 keys).
 */
const PREFIXES_AT_ONCE = 8;

export { cancelDeletion, scheduleDeletion };

/** A key ending in "/" is a prefix; anything else names one object. */
async function deleteBytes(rt: Runtime, prefix: string): Promise<void> {
  if (prefix.endsWith('/')) await rt.storage.deletePrefix(prefix);
  else await rt.storage.delete(prefix);
}

/**
 * Deletes the bytes of the given scheduled rows now (or of every due row) and drops the
 * rows that succeeded. Failures stay scheduled for the janitor.
 */
export async function runDeletions(rt: Runtime, ids?: string[], db: Db = rt.db): Promise<number> {
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
