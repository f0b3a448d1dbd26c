import 'server-only';
import type { Runtime } from '../runtime';
import { isAdmin, type Principal } from './principal';
import { enforceRateLimit } from './rate-limit';

/**
 * Counts a password a member sets (a share's, an upload's) against their per-minute limit
 * (429 past it), before its scrypt hash is computed: each hash holds a thread of the pool
 * file I/O runs on (issue 22, item 5). The administrator is bounded by the hashing queue alone.
 */
export async function limitPasswordSetting(rt: Runtime, principal: Principal): Promise<void> {
  if (principal.kind === 'user' && !isAdmin(principal)) await enforceRateLimit(rt, 'password', principal.user.id);
}

/**
 * Who sets a password, for their share of the hashing queue's setting lane (lib/auth/passwords.ts):
 * a member by their id, the Admin Token and its sessions as one.
 */
export const setterKey = (principal: Principal): string => (principal.kind === 'user' ? `user:${principal.user.id}` : 'admin');
