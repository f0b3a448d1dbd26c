import 'server-only';
import { approveCliHandoff, insertCliHandoff, takeCliHandoff } from '@/db/queries/cli-handoffs';
import { AppError, notFound } from '../errors';
import type { Runtime } from '../runtime';
import { randomString, randomToken, sha256Hex } from './crypto';
import type { Principal } from './principal';
import { enforceAddressAndAccount, enforceRateLimit } from './rate-limit';
import { issueSession, type SignInClient, type SignInResult } from './sign-in';

/** How long a hand-off waits for its approval and its CLI. */
export const HANDOFF_MS = 10 * 60 * 1000;
/** Seconds the CLI waits between polls. */
export const POLL_INTERVAL_S = 2;
/** The page where the member signs in (single sign-on) and approves. */
export const HANDOFF_PAGE = '/cli-login';
/** Consonants only: no word, no 0/O or 1/I to misread; 20^8 codes. */
const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

/** `ABCD-EFGH` as typed or pasted (any case, spaces, dashes); null when it cannot be one. */
export function normalizeUserCode(v: string): string | null {
  const code = v.toUpperCase().replace(/[\s-]/g, '');
  return code.length === 8 && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}
const shown = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

export interface StartedHandoff {
  device_code: string;
  user_code: string;
  verification_url: string;
  expires_at: string;
  interval: number;
}

/**
 * `POST /api/auth/cli/handoff` (`htmls login --sso`): a hand-off for the CLI to poll with its
 * `device_code`, and the page (with the `user_code` to compare with the terminal's) where the
 * member signs in and approves. Both codes are stored hashed; ten per address in ten minutes.
 */
export async function startCliHandoff(rt: Runtime, ip: string, origin: string): Promise<StartedHandoff> {
  await enforceRateLimit(rt, 'cliHandoff', ip);
  const deviceCode = randomToken();
  const userCode = randomString(8, ALPHABET);
  const expiresAt = new Date(Date.now() + HANDOFF_MS);
  await insertCliHandoff(rt.db, { deviceHash: sha256Hex(deviceCode), userCodeHash: sha256Hex(userCode), expiresAt });
  return {
    device_code: deviceCode,
    user_code: shown(userCode),
    verification_url: `${origin}${HANDOFF_PAGE}?code=${shown(userCode)}`,
    expires_at: expiresAt.toISOString(),
    interval: POLL_INTERVAL_S,
  };
}

/**
 * `POST /api/auth/cli/handoff/approve`: the signed-in member (a session, never an access
 * token) hands the CLI a session of their own. A code that is unknown, expired, used or already
 * approved is a 404; tries count per address and per account.
 */
export async function approveHandoff(rt: Runtime, principal: Principal, input: { user_code: string }, ip: string): Promise<void> {
  if (principal.kind !== 'user') throw new AppError('forbidden', 'This is for member accounts, not the Admin Token');
  await enforceAddressAndAccount(rt, 'cliHandoffApprove', ip, principal.user.id);
  const code = normalizeUserCode(input.user_code);
  if (!code || !(await approveCliHandoff(rt.db, sha256Hex(code), principal.user.id))) {
    throw notFound('No sign-in waits for this code: it expired, was used, or was mistyped. Run htmls login --sso again.');
  }
}

export type HandoffPoll = { status: 'pending' } | { status: 'approved'; session: Extract<SignInResult, { kind: 'session' }> };

/**
 * `POST /api/auth/cli/handoff/poll`: pending until approved; then, once, the member session
 * `htmls login` would get (method `cli-handoff`). Unknown, expired or taken: 410 `expired`.
 */
export async function pollHandoff(rt: Runtime, input: { device_code: string }, client: SignInClient): Promise<HandoffPoll> {
  await enforceRateLimit(rt, 'cliHandoffPoll', client.ip);
  const found = await takeCliHandoff(rt.db, sha256Hex(input.device_code));
  if (found.state === 'pending') return { status: 'pending' };
  if (found.state === 'unknown' || found.user.status !== 'active') throw new AppError('expired', 'This sign-in expired or was used: run htmls login --sso again');
  return { status: 'approved', session: await issueSession(rt, found.user, 'cli-handoff', client) };
}
