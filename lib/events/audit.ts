import 'server-only';
import type { z } from 'zod';
import { currentUsage, insertAudit, listAuditPage, storageHistory } from '@/db/queries/audit';
import type { Principal } from '../auth/principal';
import type { auditEntrySchema, storageHistorySchema } from '../contract/responses';
import type { Runtime } from '../runtime';
import { isUuid } from '../is-uuid';
import { findUserById } from '@/db/queries/users';
import { findHostedFileById } from '@/db/queries/hosted-files';
import { decodeUsCursor, encodeUsCursor } from '../lists/page-cursor';

type AuditEntryDto = z.output<typeof auditEntrySchema>;
type StorageHistoryDto = z.output<typeof storageHistorySchema>;

/**
 * Who did it, as the log shows it: a member's username, the Admin Token, or an access token by
 * its name and prefix (a CI deploy is the token "ci" (htmls_pat_AbC1…), not "Admin Token").
 */
export function actorOf(principal: Principal | null): { actor: string; actorId: string | null } {
  if (!principal) return { actor: 'anonymous', actorId: null };
  const token = principal.grant?.name ? ` via token "${principal.grant.name}" (${principal.grant.prefix}…)` : '';
  if (principal.kind === 'user') return { actor: `${principal.user.username}${token}`, actorId: principal.user.id };
  return { actor: token ? `token "${principal.grant!.name}" (${principal.grant!.prefix}…)` : 'Admin Token', actorId: null };
}

/**
 * What an audited action is about, named before it runs (a deleted user or file has no name
 * after): a user's username, a hosted file's project and path. Null: the route's own params say it.
 */
export async function auditSubject(rt: Runtime, action: string, params: Record<string, string>): Promise<string | null> {
  try {
    if ((action === 'user.updated' || action === 'user.deleted' || action === 'user.sessions_ended') && params.id && isUuid(params.id)) {
      return (await findUserById(rt.db, params.id))?.username ?? null;
    }
    if (action === 'file.deleted' && params.id && isUuid(params.id)) {
      const f = await findHostedFileById(rt.db, params.id);
      return f ? `${f.slug}/${f.path}` : null;
    }
  } catch {
    /* the id itself then */
  }
  return null;
}

/** One administrative action; a failure to write it is logged, never the caller's failure. */
export async function recordAudit(rt: Runtime, principal: Principal | null, action: string, target: string, ip: string): Promise<void> {
  try {
    await insertAudit(rt.db, { ...actorOf(principal), action, target: target.slice(0, 300), ip });
  } catch (e) {
    console.error('[htmls] audit entry not written:', e);
  }
}

/** A sign-in with the Admin Token itself. */
export async function recordAdminLogin(rt: Runtime, ip: string): Promise<void> {
  try {
    await insertAudit(rt.db, { actor: 'Admin Token', actorId: null, action: 'admin.login', target: '', ip });
  } catch (e) {
    console.error('[htmls] audit entry not written:', e);
  }
}

/** GET /api/audit — newest first, filtered by action and actor. */
export async function listAudit(
  rt: Runtime,
  q: { limit: number; cursor?: string; action?: string; actor?: string },
): Promise<{ entries: AuditEntryDto[]; next_cursor: string | null }> {
  const rows = await listAuditPage(rt.db, { action: q.action, actor: q.actor }, { limit: q.limit + 1, after: q.cursor ? decodeUsCursor(q.cursor) : undefined });
  const shown = rows.slice(0, q.limit);
  const last = shown.at(-1);
  return {
    entries: shown.map(({ row }) => ({ id: row.id, at: row.createdAt.toISOString(), actor: row.actor, action: row.action, target: row.target, address: row.ip })),
    next_cursor: rows.length > q.limit && last ? encodeUsCursor({ createdAtUs: last.createdAtUs, id: last.row.id }) : null,
  };
}

/** GET /api/storage/history — each member's stored bytes per day over the last `days` days. */
export async function getStorageHistory(rt: Runtime, days: number): Promise<StorageHistoryDto> {
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const dayList = Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
  const rows = await storageHistory(rt.db, dayList[0]);
  const members = new Map<string, { user_id: string; username: string; bytes: (number | null)[] }>();
  const index = new Map(dayList.map((d, i) => [d, i]));
  for (const r of rows) {
    const m = members.get(r.userId) ?? { user_id: r.userId, username: r.username, bytes: dayList.map(() => null) };
    const i = index.get(r.day);
    if (i !== undefined) m.bytes[i] = r.bytes;
    members.set(r.userId, m);
  }
  // Today's point is the live figure; the janitor's snapshot keeps it for the days after.
  for (const u of await currentUsage(rt.db)) {
    const m = members.get(u.userId) ?? { user_id: u.userId, username: u.username, bytes: dayList.map(() => null) };
    m.bytes[dayList.length - 1] = u.bytes;
    members.set(u.userId, m);
  }
  return { days: dayList, members: [...members.values()] };
}
