import 'server-only';
import { endOtherSessions } from '@/db/queries/second-factor';
import { deleteUserSessions, endUserSessionById, listLiveUserSessions } from '@/db/queries/sessions';
import { findUserById } from '@/db/queries/users';
import { AppError, notFound } from '../errors';
import type { Runtime } from '../runtime';
import { isUuid } from '../is-uuid';
import type { Principal } from './principal';
import { enforceAddressAndAccount } from './rate-limit';

export interface SessionDto {
  id: string;
  current: boolean;
  method: string;
  user_agent: string;
  network: string;
  created_at: string;
  last_used_at: string | null;
}

function member(principal: Principal | null): Extract<Principal, { kind: 'user' }> {
  if (principal?.kind !== 'user') throw new AppError('forbidden', 'This is for member accounts, not the Admin Token');
  return principal;
}

/** GET /api/auth/sessions: the member's live sessions, the one asking marked `current`. */
export async function listSessions(rt: Runtime, principal: Principal | null, ip: string): Promise<SessionDto[]> {
  const p = member(principal);
  await enforceAddressAndAccount(rt, 'sessions', ip, p.user.id);
  const rows = await listLiveUserSessions(rt.db, p.user.id);
  return rows.map((s) => ({
    id: s.id,
    current: s.tokenHash === p.tokenHash,
    method: s.method,
    user_agent: s.userAgent,
    network: s.network,
    created_at: s.createdAt.toISOString(),
    last_used_at: (s.lastUsedAt ?? s.createdAt).toISOString(),
  }));
}

/** DELETE /api/auth/sessions/:id: ends one of the member's sessions (the current one too: that is a sign-out). */
export async function endSession(rt: Runtime, principal: Principal | null, id: string, ip: string): Promise<void> {
  const p = member(principal);
  await enforceAddressAndAccount(rt, 'sessions', ip, p.user.id);
  if (!isUuid(id) || !(await endUserSessionById(rt.db, p.user.id, id))) throw notFound('No such session');
}

/** DELETE /api/auth/sessions: ends every session of the member but the one asking. */
export async function endOtherSessionsOf(rt: Runtime, principal: Principal | null, ip: string): Promise<void> {
  const p = member(principal);
  await enforceAddressAndAccount(rt, 'sessions', ip, p.user.id);
  await rt.db.transaction(async (tx) => endOtherSessions(tx, p.user.id, p.tokenHash));
}

/** DELETE /api/users/:id/sessions (administrator): signs a member out everywhere. */
export async function endMemberSessions(rt: Runtime, id: string): Promise<void> {
  if (!isUuid(id) || !(await findUserById(rt.db, id))) throw notFound('No such user');
  await deleteUserSessions(rt.db, id);
}
