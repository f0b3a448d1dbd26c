import 'server-only';
import { hitRateLimit, peekRateLimit } from '@/db/queries/rate-limits';
import { AppError } from '../errors';
import type { Runtime } from '../runtime';

export const LIMITS = {
  login: { limit: 10, windowSeconds: 300 },
  check: { limit: 30, windowSeconds: 60 },
  unlock: { limit: 10, windowSeconds: 300 },
  /** Not in the spec: 5 accounts an hour per address keeps sign-up spam slow. */
  register: { limit: 5, windowSeconds: 3600 },
  /** Passwords a member sets (shares, uploads) per minute: each costs a scrypt hash (issue 22, item 5). */
  password: { limit: 10, windowSeconds: 60 },
  /**
   * Anonymous uploads to file requests: inits per address (IPv6 per /64, every attempt), and
   * accepted inits per request from everyone (refused ones cost a request nothing: issue 39).
   */
  requestInit: { limit: 30, windowSeconds: 600 },
  requestInitPerRequest: { limit: 200, windowSeconds: 600 },
  /** Webhook redeliveries (and test events) per principal: each is a request to a third party (issue 39, item 4). */
  redeliver: { limit: 30, windowSeconds: 60 },
  /**
   * Second-factor codes (login/second-factor, totp/enable) per address and per account, over and
   * above each challenge's own 5 tries: a new challenge costs a right password, and this keeps
   * an attacker who has the password from trying codes through many challenges (issue 42).
   */
  secondFactor: { limit: 20, windowSeconds: 300 },
  /** TOTP setup and disable (a password check), per address and per account. */
  totp: { limit: 20, windowSeconds: 300 },
  /** Listing and ending sessions, per address and per account. */
  sessions: { limit: 60, windowSeconds: 60 },
  /**
   * Passkey options and answers (register, login, second factor, rename, remove), per address
   * and, once the account is known, per account: each option leaves a challenge row behind.
   */
  passkeys: { limit: 30, windowSeconds: 300 },
  /** Single sign-on starts and callbacks per address (issue 42): each costs the provider a round trip. */
  sso: { limit: 30, windowSeconds: 300 },
  /** `htmls login --sso` hand-offs (issue 42): made per address; polled per address; approved per address and per account. */
  cliHandoff: { limit: 10, windowSeconds: 600 },
  cliHandoffPoll: { limit: 400, windowSeconds: 600 },
  cliHandoffApprove: { limit: 10, windowSeconds: 300 },
} as const;

export type LimitName = keyof typeof LIMITS;

/** Counts the attempt; past the limit throws 429 with Retry-After. */
export async function enforceRateLimit(rt: Runtime, name: LimitName, ip: string, scope = ''): Promise<void> {
  const { limit, windowSeconds } = LIMITS[name];
  const { count, resetInSeconds } = await hitRateLimit(rt.db, `${name}:${scope}:${ip}`, windowSeconds);
  if (count > limit) throw limited(resetInSeconds);
}

const limited = (resetInSeconds: number) =>
  new AppError('rate_limited', `Too many attempts; try again in ${resetInSeconds} seconds`, {
    'Retry-After': String(resetInSeconds),
  });

/** Counts one attempt without refusing it: for limits that count only what was accepted. */
export async function countRateLimit(rt: Runtime, name: LimitName, ip: string, scope = ''): Promise<void> {
  await hitRateLimit(rt.db, `${name}:${scope}:${ip}`, LIMITS[name].windowSeconds);
}

/** 429 when the address is already past the limit, without counting this request. */
export async function assertUnderRateLimit(rt: Runtime, name: LimitName, ip: string, scope = ''): Promise<void> {
  const { limit, windowSeconds } = LIMITS[name];
  const { count, resetInSeconds } = await peekRateLimit(rt.db, `${name}:${scope}:${ip}`, windowSeconds);
  if (count >= limit) throw limited(resetInSeconds);
}

/** One attempt counted against both the address and the account (the routes of issue 42). */
export async function enforceAddressAndAccount(rt: Runtime, name: LimitName, ip: string, userId: string): Promise<void> {
  await enforceRateLimit(rt, name, ip);
  await enforceRateLimit(rt, name, userId, 'account');
}
