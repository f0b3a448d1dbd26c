import 'server-only';
import { and, desc, eq, gt, lt, or, sql } from 'drizzle-orm';
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

export interface FoundTicket {
  /** Found by the client's cookie, or by its address + User-Agent. */
  by: 'cookie' | 'address';
  clientId: string;
  expiresAt: Date;
}

/** The live ticket of this target the client holds, by its cookie first, else by its address; null when none. */
export async function findTicket(db: Db, k: TicketKey): Promise<FoundTicket | null> {
  if (k.clientId === null && k.clientAddr === null) return null;
  const t = shareDownloadTickets;
  const who = [k.clientId !== null ? eq(t.clientId, k.clientId) : undefined, k.clientAddr !== null ? eq(t.clientAddr, k.clientAddr) : undefined];
  const rows = await db
    .select({ clientId: t.clientId, expiresAt: t.expiresAt })
    .from(t)
    .where(and(eq(t.groupId, k.shareId), eq(t.target, k.target), gt(t.expiresAt, sql`now()`), or(...who)))
    .orderBy(desc(t.expiresAt))
    .limit(10);
  if (rows.length === 0) return null;
  const byCookie = rows.find((r) => r.clientId === k.clientId);
  return byCookie ? { by: 'cookie', ...byCookie } : { by: 'address', ...rows[0] };
}

type TicketId = { shareId: string; target: string; clientId: string };
const ticketIs = (k: TicketId) =>
  and(eq(shareDownloadTickets.groupId, k.shareId), eq(shareDownloadTickets.target, k.target), eq(shareDownloadTickets.clientId, k.clientId));

/**
 * Charges a live ticket `length` bytes if it stays within `budget`, atomically (the WHERE is
 * re-checked under the row lock, so parallel responses on one ticket never pass it together).
 */
export async function chargeTicket(db: Db, k: TicketId, length: number, budget: number): Promise<boolean> {
  const t = shareDownloadTickets;
  const rows = await db
    .update(t)
    .set({ bytesServed: sql`${t.bytesServed} + ${length}` })
    .where(and(ticketIs(k), gt(t.expiresAt, sql`now()`), sql`${t.bytesServed} + ${length} <= ${budget}`))
    .returning({ clientId: t.clientId });
  return rows.length > 0;
}

/** Gives a ticket back bytes it was charged for but not sent. */
export async function refundTicket(db: Db, k: TicketId, bytes: number): Promise<void> {
  const t = shareDownloadTickets;
  await db
    .update(t)
    .set({ bytesServed: sql`greatest(0, ${t.bytesServed} - ${bytes})` })
    .where(ticketIs(k));
}

/**
 * Reserves one download of the share for this client, atomically: the share's count goes up
 * only while it is below max_downloads (PostgreSQL re-checks the WHERE after taking the row
 * lock, so parallel reservations never pass the limit), the item's with it, and the ticket is
 * recorded (charged the first response's length). False when no download is left.
 */
export async function reserveDownload(
  db: Db,
  r: { shareId: string; itemId: string | null; target: string; clientId: string; clientAddr: string; expiresAt: Date; bytesServed: number },
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
      .values({ groupId: r.shareId, target: r.target, clientId: r.clientId, clientAddr: r.clientAddr, expiresAt: r.expiresAt, bytesServed: r.bytesServed })
      .onConflictDoUpdate({
        target: [shareDownloadTickets.groupId, shareDownloadTickets.target, shareDownloadTickets.clientId],
        set: { clientAddr: r.clientAddr, expiresAt: r.expiresAt, bytesServed: r.bytesServed },
      });
    return true;
  });
}

/** The janitor's: tickets past their time continue nothing. */
export async function purgeExpiredTickets(db: Db): Promise<void> {
  await db.delete(shareDownloadTickets).where(lt(shareDownloadTickets.expiresAt, sql`now()`));
}
