import 'server-only';
import { pendingDirectUploadsPage } from '@/db/queries/shares';
import type { Runtime } from '../runtime';
import { isStorageNotFound, type PartInfo } from '../storage/types';
import { expectedPartSize } from './capabilities';
import { discardGroup } from './abort-upload';

/**
 * Janitor: a direct-mode upload whose stored parts exceed what was declared (a part past the
 * file's count or larger than its size) is aborted as soon as seen, not after the pending TTL.
 * The signed Content-Length already stops this on a conforming store; this frees the bytes a
 * store that ignores it would keep for a day. Returns the number of groups aborted.
 */
export async function abortOversizedUploads(rt: Runtime): Promise<number> {
  const doomed = new Set<string>();
  let after: string | null = null;
  for (;;) {
    const page = await pendingDirectUploadsPage(rt.db, after);
    if (page.length === 0) break;
    after = page[page.length - 1].pending.id;
    for (const { pending: p, partSize } of page) {
      // A file whose first part URL was never asked for holds nothing in the store.
      if (doomed.has(p.groupId) || !p.storeUploadId) continue;
      let parts: PartInfo[];
      try {
        parts = await rt.storage.listParts(p.storageKey, p.storeUploadId);
      } catch (e) {
        if (isStorageNotFound(e)) continue;
        throw e;
      }
      const declared = Number(p.declaredSize);
      const over = parts.some((x) => x.partNumber > p.partCount || x.size > expectedPartSize(declared, partSize, x.partNumber));
      if (over) doomed.add(p.groupId);
    }
  }
  let n = 0;
  for (const id of doomed) {
    if (await discardGroup(rt, id)) n++;
  }
  if (n > 0) console.log(`[htmls] janitor: aborted ${n} upload(s) whose stored parts exceeded their declared sizes`);
  return n;
}
