import 'server-only';
import { and, eq, gt, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { shareDownloadTickets, shareGroups, shareItems } from '../schema';

export interface TicketKey {
  shareId: string;
  target: string;
  /** The guest's cookie value; null when it sent none. */
  clientId: string | null;
  /** Hash of address + User-Agent; null when an address match must not count (byte 0). */
  clientAddr: string | null;
}

/** How a live ticket of this target was found: by the client's cookie, by its address, or none. */
export async function findTicket(db: Db, k: TicketKey): Promise<'cookie' | 'address' | null> {
  if (k.clientId === null && k.clientAddr === null) return null;
  const t = shareDownloadTickets;
  const who = [k.clientId !== null ? eq(t.clientId, k.clientId) : undefined, k.clientAddr !== null ? eq(t.clientAddr, k.clientAddr) : undefined];
  const rows = await db
    .select({ clientId: t.clientId })
    .from(t)
    .where(and(eq(t.groupId, k.shareId), eq(t.target, k.target), gt(t.expiresAt, sql`now()`), or(...who)))
    .limit(2);
  if (rows.length === 0) return null;
  return rows.some((r) => r.clientId === k.clientId) ? 'cookie' : 'address';
}

/**
 * Reserves one download of the share for this client, atomically: the share's count goes up
 * only while it is below max_downloads (PostgreSQL re-checks the WHERE after taking the row
 * lock, so parallel reservations never pass the limit), the item's with it, and the ticket is
 * recorded. False when no download is left.
 */
export async function reserveDownload(
  db: Db,
  r: { shareId: string; itemId: string | null; target: string; clientId: string; clientAddr: string; expiresAt: Date },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const won = await tx
      .update(shareGroups)
      .set({ downloadCount: sql`${shareGroups.downloadCount} + 1` })
      .where(
        and(
          eq(shareGroups.id, r.shareId),
          sql`(${shareGroups.maxDownloads} is null or ${shareGroups.downloadCount} < ${shareGroups.maxDownloads})`,
        ),
      )
      .returning({ id: shareGroups.id });
    if (won.length === 0) return false;
    if (r.itemId !== null) {
      await tx
        .update(shareItems)
        .set({ downloadCount: sql`${shareItems.downloadCount} + 1` })
        .where(eq(shareItems.id, r.itemId));
    }
    await tx
      .insert(shareDownloadTickets)
      .values({ groupId: r.shareId, target: r.target, clientId: r.clientId, clientAddr: r.clientAddr, expiresAt: r.expiresAt })
      .onConflictDoUpdate({
        target: [shareDownloadTickets.groupId, shareDownloadTickets.target, shareDownloadTickets.clientId],
        set: { clientAddr: r.clientAddr, expiresAt: r.expiresAt },
      });
    return true;
  });
}

/** The janitor's: tickets past their time continue nothing. */
export async function purgeExpiredTickets(db: Db): Promise<void> {
  await db.delete(shareDownloadTickets).where(lt(shareDownloadTickets.expiresAt, sql`now()`));
}
