import 'server-only';
import { findShareGroupAndItem } from '@/db/queries/shares';
import { EPOCH } from '@/db/queries/settings';
import type { ShareGroupRow, ShareItemRow } from '@/db/schema';
import { readRecently, watchEpoch } from '../epoch-watch';
import { processState } from '../process-state';
import type { Runtime } from '../runtime';

type ShareItemRecord = { group: ShareGroupRow; username: string | null; item: ShareItemRow | null };

/**
 * The byte path's share row and item by (share id, path), so a Range request of a video
 * player seeking costs no database round trip. Kept only for a published share without a
 * download limit and a path that names an item: what such an entry holds changes only through
 * a PATCH, a DELETE or an account deletion, which bump the shares epoch (lib/epoch-watch.ts;
 * another instance's change shows here within ~250 ms, this instance's at once). Expiry is
 * judged at each request from the kept time. A share with a limit is read each time: its
 * count moves with every download. While the database is away, entries serve for at most
 * STALE_AFTER_MS after the last reading of the epoch.
 */
const MAX_ENTRIES = 10_000;
/**
 * Without a reading of the epoch for this long (the database unreachable from this instance
 * only), cached entries are not used: a brief outage does not stop a video, a long partition
 * does not keep serving a share its owner has since taken offline or locked.
 */
const STALE_AFTER_MS = 10_000;
const state = processState('share-item-cache', () => ({
  gen: 0,
  entries: new Map<string, ShareItemRecord>(),
}));

/** Drops every cached share on this instance (after a change made here). */
export function forgetShares(): void {
  state.gen++;
  state.entries.clear();
}

export async function loadShareItem(rt: Runtime, id: string, relativePath: string): Promise<ShareItemRecord | null> {
  const key = `${id}/${relativePath}`;
  const hit = state.entries.get(key);
  // forgetShares() empties the map as it moves gen: what is in it is current.
  if (hit && readRecently(EPOCH.shares, STALE_AFTER_MS)) return hit;
  await watchEpoch(rt, EPOCH.shares, forgetShares);
  const gen = state.gen;
  const record = await findShareGroupAndItem(rt.db, id, relativePath);
  // A change that landed while this loaded makes it stale: use it once, never keep it.
  if (record?.item && gen === state.gen && keepable(record.group)) {
    // Map order is insertion order: the oldest entry goes first.
    if (state.entries.size >= MAX_ENTRIES) state.entries.delete(state.entries.keys().next().value!);
    state.entries.set(key, record);
  }
  return record;
}

const keepable = (g: ShareGroupRow) => g.uploadState === 'complete' && g.status === 'online' && g.maxDownloads === null;
