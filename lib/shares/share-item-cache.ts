import 'server-only';
import { findShareGroupAndItem } from '@/db/queries/shares';
import { EPOCH } from '@/db/queries/settings';
import type { ShareGroupRow, ShareItemRow } from '@/db/schema';
import { epochCache, GUEST_CACHE_STALE_MS } from '../epoch-cache';
import type { Runtime } from '../runtime';

type ShareItemRecord = { group: ShareGroupRow; item: ShareItemRow | null };

/**
 * The byte path's share row and item by (share id, path), so a Range request of a video
 * player seeking costs no database round trip. Kept only for a published share without a
 * download limit and a path that names an item: what such an entry holds changes only through
 * a PATCH, a DELETE or an account deletion, which bump the shares epoch. Expiry is judged at
 * each request from the kept time. A share with a limit is read each time: its count moves
 * with every download. Without a reading of the epoch for 10 s (the database unreachable from
 * this instance only) entries are not used: a brief outage does not stop a video, a long
 * partition does not keep serving a share its owner has since taken offline or locked.
 */
const cache = epochCache<ShareItemRecord | null>({
  name: 'share-item-cache',
  epoch: EPOCH.shares,
  maxEntries: 10_000,
  staleAfterMs: GUEST_CACHE_STALE_MS,
  keep: (r) => r?.item != null && keepable(r.group),
});

export const loadShareItem = (rt: Runtime, id: string, relativePath: string): Promise<ShareItemRecord | null> =>
  cache.get(rt, `${id}/${relativePath}`, () => findShareGroupAndItem(rt.db, id, relativePath));

const keepable = (g: ShareGroupRow) => g.uploadState === 'complete' && g.status === 'online' && g.maxDownloads === null;
