import 'server-only';
import {
  claimTotpStep,
  consumeChallenge,
  consumeRecoveryCode,
  disableTotp as disableTotpRow,
  enableTotp as enableTotpRows,
  findLiveChallenge,
  storePendingTotpSecret,
  takeChallengeTry,
} from '@/db/queries/second-factor';
import { findUserById } from '@/db/queries/users';
import type { SignInChallengeRow, UserRow } from '@/db/schema';
import { AppError } from '../errors';
import { getServerSecret, type Runtime } from '../runtime';
import { randomString, sha256Hex } from './crypto';
import { confirmIdentity, passkeyConfirms, type RelyingParty, type WebauthnResponse } from './passkeys';
import type { Principal } from './principal';
import { enforceAddressAndAccount, enforceRateLimit } from './rate-limit';
import { CHALLENGE_TRIES, issueSession, type SignInClient, type SignInResult } from './sign-in';
import { newTotpSecret, openTotpSecret, otpauthUrl, sealTotpSecret, totpStepOf } from './totp';

const RECOVERY_CODES = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const expired = () => new AppError('unauthenticated', 'This sign-in has expired; sign in again');
const wrongCode = () => new AppError('wrong_code', 'That code is not right (or was used already)');
const tooManyTries = (ch: SignInChallengeRow) => {
  const seconds = Math.max(1, Math.ceil((ch.expiresAt.getTime() - Date.now()) / 1000));
  return new AppError('rate_limited', 'Too many wrong codes; sign in again later', { 'Retry-After': String(seconds) });
};

/** Recovery codes compare without case, spaces or dashes: `abcde-fghjk` = `ABCDE FGHJK`. */
const normalizeRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
const hashRecovery = (userId: string, code: string) => sha256Hex(`htmls recovery\u0000${userId}\u0000${normalizeRecovery(code)}`);

function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => {
    const s = randomString(10, RECOVERY_ALPHABET);
    return `${s.slice(0, 5)}-${s.slice(5)}`;
  });
}

/**
 * Counts one try of a challenge (5 in all), with the address's and the account's limits; the
 * challenge and its user (active) when the try may go on.
 */
async function tryChallenge(rt: Runtime, challenge: string, ip: string, kind: SignInChallengeRow['kind']): Promise<{ ch: SignInChallengeRow; user: UserRow }> {
  await enforceRateLimit(rt, 'secondFactor', ip);
  if (challenge.length > 200) throw expired();
  const hash = sha256Hex(challenge);
  const live = await findLiveChallenge(rt.db, hash);
  if (!live) throw expired();
  await enforceRateLimit(rt, 'secondFactor', live.userId, 'account');
  const ch = await takeChallengeTry(rt.db, hash, CHALLENGE_TRIES);
  if (!ch) throw tooManyTries(live);
  if (ch.kind !== kind) {
    throw new AppError('invalid_request', kind === 'required' ? 'This account has to set up its second factor first' : 'This account has a second factor already');
  }
  const user = await findUserById(rt.db, ch.userId);
  if (!user || user.status !== 'active') throw expired();
  return { ch, user };
}

/** The secret a user's TOTP row holds, opened; null when there is none or it cannot be opened. */
async function secretOf(rt: Runtime, user: UserRow): Promise<string | null> {
  return user.totpSecret ? openTotpSecret(user.totpSecret, await getServerSecret(rt)) : null;
}

/**
 * A TOTP code checked and its time step taken, in that order: true only for a right code of a
 * step later than any used before (each code works once, ±1 step).
 */
async function acceptTotp(rt: Runtime, user: UserRow, code: string, enabled: boolean): Promise<boolean> {
  const secret = await secretOf(rt, user);
  if (secret === null) return false;
  const step = totpStepOf(secret, code);
  if (step === null) return false;
  return (await claimTotpStep(rt.db, user.id, step, enabled)) === true;
}

/** POST /api/auth/login/second-factor: a code (or a recovery code) for a `required` challenge; the session. */
export async function passSecondFactor(
  rt: Runtime,
  rp: RelyingParty,
  input: { challenge: string; code?: string; recovery_code?: string; response?: WebauthnResponse },
  client: SignInClient,
): Promise<Extract<SignInResult, { kind: 'session' }>> {
  if (input.code === undefined && input.recovery_code === undefined && input.response === undefined) {
    throw new AppError('invalid_request', 'Send a code, a recovery_code or a passkey response');
  }
  const { ch, user } = await tryChallenge(rt, input.challenge, client.ip, 'required');
  let ok = false;
  let factor = 'totp';
  if (input.response !== undefined) {
    factor = 'passkey';
    ok = (await passkeyConfirms(rt, rp, user.id, input.response, ch.tokenHash)) === true;
  } else if (input.code !== undefined) {
    ok = user.totpEnabled && (await acceptTotp(rt, user, input.code, true));
  } else if (input.recovery_code !== undefined) {
    factor = 'recovery';
    ok = user.totpEnabled && (await consumeRecoveryCode(rt.db, user.id, hashRecovery(user.id, input.recovery_code))) === true;
  }
  if (ok !== true) throw wrongCode();
  if ((await consumeChallenge(rt.db, ch.tokenHash)) !== true) throw expired();
  return issueSession(rt, user, `${ch.method}+${factor}`, client);
}

/** Who sets up or enables TOTP: the signed-in member, or a sign-in that must enrol (its challenge). */
type Enroller = { principal: Principal | null; challenge?: string };

async function enrollingUser(rt: Runtime, who: Enroller, ip: string): Promise<{ user: UserRow; ch: SignInChallengeRow | null }> {
  if (who.principal?.kind === 'user') {
    await enforceAddressAndAccount(rt, 'totp', ip, who.principal.user.id);
    const user = await findUserById(rt.db, who.principal.user.id);
    if (!user) throw expired();
    return { user, ch: null };
  }
  if (who.principal) throw new AppError('forbidden', 'This is for member accounts, not the Admin Token');
  if (who.challenge === undefined) throw new AppError('unauthenticated', 'Sign in to continue');
  await enforceRateLimit(rt, 'totp', ip);
  const live = who.challenge.length <= 200 ? await findLiveChallenge(rt.db, sha256Hex(who.challenge)) : null;
  if (!live || live.kind !== 'enroll') throw expired();
  const user = await findUserById(rt.db, live.userId);
  if (!user || user.status !== 'active') throw expired();
  return { user, ch: live };
}

/** POST /api/auth/totp/setup: a new secret, not active until a code from it enables it. */
export async function setUpTotp(rt: Runtime, who: Enroller, ip: string): Promise<{ secret: string; otpauth_url: string }> {
  const { user } = await enrollingUser(rt, who, ip);
  if (user.totpEnabled) throw new AppError('conflict', 'Two-factor sign-in is on already; turn it off first to set up another');
  const secret = newTotpSecret();
  if (!(await storePendingTotpSecret(rt.db, user.id, sealTotpSecret(secret, await getServerSecret(rt))))) {
    throw new AppError('conflict', 'Two-factor sign-in is on already; turn it off first to set up another');
  }
  const issuer = rt.env.publicUrl ? `htmls (${new URL(rt.env.publicUrl).host})` : 'htmls';
  return { secret, otpauth_url: otpauthUrl(secret, user.username, issuer) };
}

/**
 * POST /api/auth/totp/enable: a code from the set-up secret turns TOTP on, with ten recovery
 * codes (answered once, kept hashed), and ends the user's other sessions. From an enrolment
 * challenge it also finishes that sign-in: the answer carries the session.
 */
export async function enableTotp(
  rt: Runtime,
  who: Enroller,
  code: string,
  client: SignInClient,
): Promise<{ recoveryCodes: string[]; session: Extract<SignInResult, { kind: 'session' }> | null }> {
  let user: UserRow;
  let ch: SignInChallengeRow | null = null;
  if (who.principal === null && who.challenge !== undefined) {
    ({ user, ch } = await tryChallenge(rt, who.challenge, client.ip, 'enroll'));
  } else {
    ({ user } = await enrollingUser(rt, who, client.ip));
    await enforceRateLimit(rt, 'secondFactor', user.id, 'account');
  }
  if (user.totpEnabled) throw new AppError('conflict', 'Two-factor sign-in is on already');
  if (!user.totpSecret) throw new AppError('invalid_request', 'Set up two-factor sign-in first (POST /api/auth/totp/setup)');
  if ((await acceptTotp(rt, user, code, false)) !== true) throw wrongCode();
  const codes = newRecoveryCodes();
  const keep = who.principal?.kind === 'user' ? who.principal.tokenHash : null;
  const hashes = codes.map((c) => hashRecovery(user.id, c));
  if ((await enableTotpRows(rt.db, user.id, hashes, keep)) !== true) throw new AppError('conflict', 'Two-factor sign-in is on already');
  if (!ch) return { recoveryCodes: codes, session: null };
  if ((await consumeChallenge(rt.db, ch.tokenHash)) !== true) throw expired();
  return { recoveryCodes: codes, session: await issueSession(rt, { ...user, totpEnabled: true }, `${ch.method}+totp`, client) };
}

/**
 * POST /api/auth/totp/disable: only with the account's current password (checked, awaited,
 * compared to `true`: CVE-2026-49467 was a check whose promise was never awaited), or a passkey.
 */
export async function disableTotp(rt: Runtime, rp: RelyingParty, principal: Principal, input: { password?: string; response?: WebauthnResponse }, ip: string): Promise<void> {
  if (principal.kind !== 'user') throw new AppError('forbidden', 'This is for member accounts, not the Admin Token');
  await enforceAddressAndAccount(rt, 'totp', ip, principal.user.id);
  await confirmIdentity(rt, rp, principal.user.id, input, ip);
  await disableTotpRow(rt.db, principal.user.id);
}

