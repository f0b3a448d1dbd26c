import 'server-only';
import { recordDownloads, type DownloadEntry } from '@/db/queries/activity';
import { perRuntime, type Runtime } from '../runtime';

/**
 * Download counts and the download activity log off the byte path: countDownload() and
 * recordDownload() only add to an in-process buffer; a timer writes it every second (one
 * transaction with the share.downloaded events: db/queries/activity.ts), and
 * flushDownloadCounts() writes the rest at shutdown. A failed write keeps its counts for the next tick.
 */
const FLUSH_MS = 1000;

interface Buffered {
  byShare: Map<string, number>;
  byItem: Map<string, number>;
  /** Per share, counts taken by a write still in flight: not in the database yet either. */
  writing: Map<string, number>;
  activity: DownloadEntry[];
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
}

/** Each service's buffer, written to its own database. */
const stateOf = perRuntime((): Buffered => ({ byShare: new Map(), byItem: new Map(), writing: new Map(), activity: [], timer: null, flushing: null }));

const bump = (m: Map<string, number>, k: string, n: number) => m.set(k, (m.get(k) ?? 0) + n);

/** A write FLUSH_MS from now, unless one is already due. */
function scheduleFlush(rt: Runtime, s: Buffered): void {
  if (s.timer) return;
  s.timer = setTimeout(() => {
    s.timer = null;
    void flushDownloadCounts(rt);
  }, FLUSH_MS);
  s.timer.unref();
}

/** One completed guest download: of an item, or of the share's ZIP when itemId is null. */
export function countDownload(rt: Runtime, shareId: string, itemId: string | null): void {
  const s = stateOf(rt);
  bump(s.byShare, shareId, 1);
  if (itemId !== null) bump(s.byItem, itemId, 1);
  scheduleFlush(rt, s);
}

/** Activity rows held at most while the database cannot take them: past it, new ones are dropped. */
const MAX_BUFFERED_ACTIVITY = 50_000;

/** One guest response of an item or a ZIP that sent bytes, whole or not (the activity log). */
export function recordDownload(rt: Runtime, entry: DownloadEntry): void {
  const s = stateOf(rt);
  if (s.activity.length >= MAX_BUFFERED_ACTIVITY) return;
  s.activity.push(entry);
  scheduleFlush(rt, s);
}

/** Downloads of this share counted here but not yet written (for the max_downloads check). */
export function unflushedDownloads(rt: Runtime, shareId: string): number {
  const s = stateOf(rt);
  return (s.byShare.get(shareId) ?? 0) + (s.writing.get(shareId) ?? 0);
}

/** Writes every buffered count now (also at shutdown); never throws. */
export async function flushDownloadCounts(rt: Runtime): Promise<void> {
  const s = stateOf(rt);
  // A loop: another caller may start a write while this one waits for the last.
  while (s.flushing) await s.flushing;
  if (s.byShare.size === 0 && s.byItem.size === 0 && s.activity.length === 0) return;
  const byShare = s.byShare;
  const byItem = s.byItem;
  const activity = s.activity;
  s.byShare = new Map();
  s.byItem = new Map();
  s.activity = [];
  s.writing = byShare;
  s.flushing = (async () => {
    try {
      await recordDownloads(rt.db, byShare, byItem, activity);
    } catch (e) {
      console.error('[htmls] download counts not written yet:', e);
      for (const [k, n] of byShare) bump(s.byShare, k, n);
      for (const [k, n] of byItem) bump(s.byItem, k, n);
      s.activity = activity.concat(s.activity).slice(0, MAX_BUFFERED_ACTIVITY);
      scheduleFlush(rt, s);
    } finally {
      s.writing = new Map();
      s.flushing = null;
    }
  })();
  await s.flushing;
}
