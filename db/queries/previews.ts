import 'server-only';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { shareItems } from '../schema';
import { bumpEpoch, EPOCH } from './settings';

/** One item a preview worker claimed: `attempt` is its claim's token (previewAttempts after it). */
export interface ClaimedPreview {
  id: string;
  groupId: string;
  storageKey: string;
  size: number;
  contentType: string;
  attempt: number;
}

/**
 * Claims up to `limit` items whose preview is still to make, for `leaseSeconds`: a row another
 * instance holds is skipped (FOR UPDATE SKIP LOCKED in the statement that moves its lease), and a
 * claim lost with its instance is due again when its lease ends. PGlite and PostgreSQL both.
 */
export async function claimPendingPreviews(db: Db, limit: number, leaseSeconds: number): Promise<ClaimedPreview[]> {
  const due = db
    .select({ id: shareItems.id })
    .from(shareItems)
    .where(and(eq(shareItems.previewState, 'pending'), or(isNull(shareItems.previewLeasedUntil), lt(shareItems.previewLeasedUntil, sql`now()`))))
    .orderBy(shareItems.createdAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(shareItems)
    .set({ previewLeasedUntil: sql`now() + make_interval(secs => ${leaseSeconds})`, previewAttempts: sql`${shareItems.previewAttempts} + 1` })
    .where(and(inArray(shareItems.id, due), eq(shareItems.previewState, 'pending')))
    .returning({
      id: shareItems.id,
      groupId: shareItems.groupId,
      storageKey: shareItems.storageKey,
      size: shareItems.size,
      contentType: shareItems.contentType,
      attempt: shareItems.previewAttempts,
    });
  return rows.map((r) => ({ ...r, size: Number(r.size) }));
}

export interface PreviewResult {
  state: 'ready' | 'none' | 'browser';
  key?: string | null;
  width?: number | null;
  height?: number | null;
  durationMs?: number | null;
}

/**
 * Records what a claim made, only while the claim still holds (the item exists, is still pending
 * and nobody claimed it again since): false when it does not, and the caller removes the object
 * it wrote. Guests' caches of the item rows learn it when the worker calls announcePreviews.
 */
export async function finishPreview(db: Db, claim: { id: string; attempt: number }, r: PreviewResult): Promise<boolean> {
  const done = await db
    .update(shareItems)
    .set({
      previewState: r.state,
      previewKey: r.key ?? null,
      previewWidth: r.width ?? null,
      previewHeight: r.height ?? null,
      durationMs: r.durationMs ?? null,
      previewLeasedUntil: null,
    })
    .where(and(eq(shareItems.id, claim.id), eq(shareItems.previewState, 'pending'), eq(shareItems.previewAttempts, claim.attempt)))
    .returning({ id: shareItems.id });
  return done.length > 0;
}

/**
 * Pictures were recorded: the shares epoch moves, so that every instance's guest caches of share
 * rows drop theirs and the share pages show the pictures. Once per batch, not per picture: each
 * move empties those caches on every instance.
 */
export async function announcePreviews(db: Db): Promise<void> {
  await bumpEpoch(db, EPOCH.shares);
}

/** Items with nothing to make (not an image or a video): one statement for the batch. */
export async function markNoPreview(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(shareItems)
    .set({ previewState: 'none', previewLeasedUntil: null })
    .where(and(inArray(shareItems.id, ids), eq(shareItems.previewState, 'pending')));
}

/** A failed attempt: due again after `retrySeconds` (the claim's lease moved). */
export async function retryPreviewLater(db: Db, claim: { id: string; attempt: number }, retrySeconds: number): Promise<void> {
  await db
    .update(shareItems)
    .set({ previewLeasedUntil: sql`now() + make_interval(secs => ${retrySeconds})` })
    .where(and(eq(shareItems.id, claim.id), eq(shareItems.previewAttempts, claim.attempt)));
}

/**
 * A frame the uploader's browser sent for a video of its own share (no ffmpeg on the server):
 * recorded only while the item waits for one. False when it does not (made already, or gone).
 */
export async function recordBrowserPoster(db: Db, itemId: string, r: { key: string; width: number; height: number; durationMs: number | null }): Promise<boolean> {
  return db.transaction(async (tx) => {
    const done = await tx
      .update(shareItems)
      .set({ previewState: 'ready', previewKey: r.key, previewWidth: r.width, previewHeight: r.height, durationMs: r.durationMs })
      .where(and(eq(shareItems.id, itemId), inArray(shareItems.previewState, ['browser', 'pending'])))
      .returning({ id: shareItems.id });
    if (done.length) await bumpEpoch(tx, EPOCH.shares);
    return done.length > 0;
  });
}
