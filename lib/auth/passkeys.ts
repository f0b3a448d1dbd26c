import 'server-only';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import {
  consumeWebauthnChallenge,
  countPasskeys,
  deletePasskey as deletePasskeyRow,
  findPasskeyByCredentialId,
  insertPasskey,
  insertWebauthnChallenge,
  listPasskeys,
  recordPasskeyUse,
  renamePasskey as renamePasskeyRow,
} from '@/db/queries/passkeys';
import { hasAnyIdentity } from '@/db/queries/oidc-identities';
import { findLiveChallenge } from '@/db/queries/second-factor';
import { findUserById } from '@/db/queries/users';
import type { PasskeyRow, UserRow, WebauthnChallengeRow } from '@/db/schema';
import type { z } from 'zod';
import type { webauthnResponseSchema } from '../contract/auth';
import type { Passkey } from '../contract/dtos';
import { AppError, notFound } from '../errors';
import type { Runtime } from '../runtime';
import { sha256Hex } from './crypto';
import { assertCurrentPassword } from './current-password';
import type { Principal } from './principal';
import { enforceAddressAndAccount, enforceRateLimit } from './rate-limit';
import { finishSignIn, type SignInClient, type SignInResult } from './sign-in';

/** The browser's answer, as the contract parsed it. */
export type WebauthnResponse = z.output<typeof webauthnResponseSchema>;

/** The relying party: this service's own origin and its host name as the RP ID (lib/http/relying-party.ts reads them off a request). */
export interface RelyingParty {
  origin: string;
  rpId: string;
}

const CHALLENGE_MS = 5 * 60 * 1000;
const RP_NAME = 'htmls';
/**
 * ES256, EdDSA, RS256: what every passkey provider offers, checked with Node's stable crypto.
 * The library's default list puts ML-DSA-44 first where the runtime has it (Node 20.20 and 22
 * only as an experimental Web Crypto algorithm, with a warning), and Chromium then picks it.
 */
const ALGORITHMS = [-7, -8, -257];

/** The WebAuthn user handle of an account: its id's bytes (no name or e-mail in it). */
const userHandleOf = (userId: string) => new TextEncoder().encode(userId);
const userHandleB64 = (userId: string) => Buffer.from(userId, 'utf8').toString('base64url');

const transportsOf = (pk: PasskeyRow) => (pk.transports ? pk.transports.split(',') : undefined);

export const toPasskeyDto = (pk: PasskeyRow): Passkey => ({
  id: pk.id,
  name: pk.name,
  created_at: pk.createdAt.toISOString(),
  last_used_at: pk.lastUsedAt?.toISOString() ?? null,
});

const invalidCredentials = () => new AppError('unauthenticated', 'invalid credentials');
const staleRequest = () => new AppError('invalid_request', 'This passkey request has expired or was used already; try again');
const memberOnly = (principal: Principal | null): UserRow => {
  if (!principal) throw new AppError('unauthenticated', 'Sign in first');
  if (principal.kind !== 'user') throw new AppError('forbidden', 'This is for member accounts, not the Admin Token');
  return principal.user;
};

/** The challenge the browser signed over, as its client data says (null when that is not readable). */
function challengeOf(response: WebauthnResponse): string | null {
  try {
    const data: unknown = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8'));
    const c = (data as { challenge?: unknown }).challenge;
    return typeof c === 'string' && c.length > 0 && c.length <= 200 ? c : null;
  } catch {
    return null;
  }
}

/**
 * The server's record of the challenge an answer names, taken (deleted) at once: every challenge
 * works once, whether its answer then verifies or not, on whichever instance it comes back to.
 */
async function takeChallenge(rt: Runtime, response: WebauthnResponse): Promise<{ row: WebauthnChallengeRow; challenge: string } | null> {
  const challenge = challengeOf(response);
  if (challenge === null) return null;
  const row = await consumeWebauthnChallenge(rt.db, sha256Hex(challenge));
  return row ? { row, challenge } : null;
}

async function storeChallenge(rt: Runtime, challenge: string, c: Pick<WebauthnChallengeRow, 'purpose' | 'userId' | 'signInChallengeHash'>): Promise<void> {
  await insertWebauthnChallenge(rt.db, { challengeHash: sha256Hex(challenge), ...c, expiresAt: new Date(Date.now() + CHALLENGE_MS) });
}

/** POST /api/auth/passkeys/options: options with a new challenge, kept server-side for one answer. */
export async function passkeyOptions(
  rt: Runtime,
  rp: RelyingParty,
  principal: Principal | null,
  input: { purpose: 'register' | 'login' | 'second_factor'; challenge?: string },
  ip: string,
): Promise<Record<string, unknown> & { challenge: string }> {
  if (input.purpose === 'register') {
    const user = memberOnly(principal);
    await enforceAddressAndAccount(rt, 'passkeys', ip, user.id);
    const existing = await listPasskeys(rt.db, user.id);
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: rp.rpId,
      userName: user.username,
      userDisplayName: user.displayName || user.username,
      userID: userHandleOf(user.id),
      attestationType: 'none',
      excludeCredentials: existing.map((pk) => ({ id: pk.credentialId, transports: transportsOf(pk) })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      supportedAlgorithmIDs: ALGORITHMS,
      timeout: CHALLENGE_MS,
    });
    await storeChallenge(rt, options.challenge, { purpose: 'register', userId: user.id, signInChallengeHash: null });
    return { ...options };
  }
  if (input.purpose === 'login') {
    await enforceRateLimit(rt, 'passkeys', ip);
    const options = await generateAuthenticationOptions({ rpID: rp.rpId, userVerification: 'required', timeout: CHALLENGE_MS });
    await storeChallenge(rt, options.challenge, { purpose: 'login', userId: null, signInChallengeHash: null });
    return { ...options };
  }
  // second_factor: for a sign-in waiting for it (its challenge), or the signed-in member confirming it is them.
  let userId: string;
  let signInChallengeHash: string | null = null;
  if (input.challenge !== undefined) {
    await enforceRateLimit(rt, 'passkeys', ip);
    const live = await findLiveChallenge(rt.db, sha256Hex(input.challenge));
    if (!live || live.kind !== 'required') throw new AppError('unauthenticated', 'This sign-in has expired; sign in again');
    await enforceRateLimit(rt, 'passkeys', live.userId, 'account');
    userId = live.userId;
    signInChallengeHash = live.tokenHash;
  } else {
    userId = memberOnly(principal).id;
    await enforceAddressAndAccount(rt, 'passkeys', ip, userId);
  }
  const mine = await listPasskeys(rt.db, userId);
  if (mine.length === 0) throw new AppError('conflict', 'This account has no passkey');
  const options = await generateAuthenticationOptions({
    rpID: rp.rpId,
    userVerification: 'required',
    allowCredentials: mine.map((pk) => ({ id: pk.credentialId, transports: transportsOf(pk) })),
    timeout: CHALLENGE_MS,
  });
  await storeChallenge(rt, options.challenge, { purpose: 'second_factor', userId, signInChallengeHash });
  return { ...options };
}

/** POST /api/auth/passkeys: the browser's answer to register options becomes a named passkey of the member. */
export async function registerPasskey(rt: Runtime, rp: RelyingParty, principal: Principal, input: { name: string; response: WebauthnResponse }, ip: string): Promise<Passkey> {
  const user = memberOnly(principal);
  await enforceAddressAndAccount(rt, 'passkeys', ip, user.id);
  const taken = await takeChallenge(rt, input.response);
  if (!taken || taken.row.purpose !== 'register' || taken.row.userId !== user.id) throw staleRequest();
  let info;
  try {
    const v = await verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: taken.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
    if (v.verified !== true) throw new Error('not verified');
    info = v.registrationInfo;
  } catch (err) {
    throw new AppError('invalid_request', `The passkey could not be verified: ${(err as Error).message}`);
  }
  const cred = info.credential;
  const row = await insertPasskey(rt.db, {
    userId: user.id,
    credentialId: cred.id,
    publicKey: Buffer.from(cred.publicKey).toString('base64url'),
    counter: cred.counter,
    transports: (cred.transports ?? []).join(','),
    name: input.name,
    backedUp: info.credentialBackedUp,
  });
  if (!row) throw new AppError('conflict', 'This passkey is registered already');
  return toPasskeyDto(row);
}

/**
 * The assertion checked against a stored passkey: signature, origin, RP ID, user verification,
 * and a signature counter that moved on (or 0 for authenticators that keep none); the new count
 * and the time of use recorded. True only when all of it held.
 */
async function verifyUse(rt: Runtime, rp: RelyingParty, pk: PasskeyRow, response: WebauthnResponse, challenge: string): Promise<boolean> {
  let newCounter: number;
  try {
    const v = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      credential: { id: pk.credentialId, publicKey: new Uint8Array(Buffer.from(pk.publicKey, 'base64url')), counter: pk.counter, transports: transportsOf(pk) },
      requireUserVerification: true,
    });
    if (v.verified !== true || v.authenticationInfo.userVerified !== true) return false;
    newCounter = v.authenticationInfo.newCounter;
  } catch {
    return false;
  }
  return (await recordPasskeyUse(rt.db, pk.id, pk.counter, newCounter)) === true;
}

/** POST /api/auth/passkeys/login: a discoverable credential names its account; the sign-in ends as every other. */
export async function signInWithPasskey(rt: Runtime, rp: RelyingParty, response: WebauthnResponse, client: SignInClient): Promise<SignInResult> {
  await enforceRateLimit(rt, 'passkeys', client.ip);
  const taken = await takeChallenge(rt, response);
  if (!taken || taken.row.purpose !== 'login') throw invalidCredentials();
  const pk = await findPasskeyByCredentialId(rt.db, response.id);
  if (!pk) throw invalidCredentials();
  await enforceRateLimit(rt, 'passkeys', pk.userId, 'account');
  // The authenticator's user handle names the account too: it must be the credential's owner.
  const handle = response.response.userHandle;
  if (handle && handle !== userHandleB64(pk.userId)) throw invalidCredentials();
  if ((await verifyUse(rt, rp, pk, response, taken.challenge)) !== true) throw invalidCredentials();
  const user = await findUserById(rt.db, pk.userId);
  if (!user || user.status !== 'active') throw invalidCredentials();
  // User verification (required above) makes this two factors in one: no TOTP step after it.
  return finishSignIn(rt, user, 'passkey', client, { secondFactorDone: true });
}

/**
 * A passkey answer to `second_factor` options: for a sign-in's challenge (`signInChallengeHash`)
 * or, with null, the signed-in member confirming it is them. The credential must be one of
 * `userId`'s; true only when it verifies.
 */
export async function passkeyConfirms(rt: Runtime, rp: RelyingParty, userId: string, response: WebauthnResponse, signInChallengeHash: string | null): Promise<boolean> {
  const taken = await takeChallenge(rt, response);
  if (!taken) return false;
  const { row } = taken;
  if (row.purpose !== 'second_factor' || row.userId !== userId || row.signInChallengeHash !== signInChallengeHash) return false;
  const pk = await findPasskeyByCredentialId(rt.db, response.id);
  if (!pk || pk.userId !== userId) return false;
  return (await verifyUse(rt, rp, pk, response, taken.challenge)) === true;
}

export async function listOwnPasskeys(rt: Runtime, principal: Principal, ip: string): Promise<Passkey[]> {
  const user = memberOnly(principal);
  await enforceAddressAndAccount(rt, 'sessions', ip, user.id);
  return (await listPasskeys(rt.db, user.id)).map(toPasskeyDto);
}

export async function renameOwnPasskey(rt: Runtime, principal: Principal, id: string, name: string, ip: string): Promise<Passkey> {
  const user = memberOnly(principal);
  await enforceAddressAndAccount(rt, 'passkeys', ip, user.id);
  const row = isUuid(id) ? await renamePasskeyRow(rt.db, user.id, id, name) : null;
  if (!row) throw notFound('No such passkey');
  return toPasskeyDto(row);
}

/**
 * DELETE /api/auth/passkeys/:id. The last one goes only with the current password or a passkey
 * (`input`, the request's body), and never when it is the account's only way in (no password,
 * no linked identity).
 */
export async function removeOwnPasskey(rt: Runtime, rp: RelyingParty, principal: Principal, id: string, input: { password?: string; response?: WebauthnResponse }, ip: string): Promise<void> {
  const user = memberOnly(principal);
  await enforceAddressAndAccount(rt, 'passkeys', ip, user.id);
  if (!isUuid(id)) throw notFound('No such passkey');
  let outcome = await deletePasskeyRow(rt.db, user.id, id, false);
  if (outcome === 'last') {
    const fresh = await findUserById(rt.db, user.id);
    if (!fresh) throw new AppError('unauthenticated', 'Sign in first');
    if (fresh.passwordHash === '' && !(await hasAnyIdentity(rt.db, fresh.id))) {
      throw new AppError('conflict', 'This passkey is the only way into this account; set a password first');
    }
    await confirmIdentity(rt, rp, user.id, input, ip);
    outcome = await deletePasskeyRow(rt.db, user.id, id, true);
  }
  if (outcome !== 'deleted') throw notFound('No such passkey');
}

/**
 * The signed-in member proves it is them again: the current password, or a passkey answer to
 * `second_factor` options asked without a sign-in challenge. 401 wrong_password otherwise.
 */
export async function confirmIdentity(rt: Runtime, rp: RelyingParty, userId: string, input: { password?: string; response?: WebauthnResponse }, ip: string): Promise<void> {
  if (input.response !== undefined) {
    const ok: boolean = (await passkeyConfirms(rt, rp, userId, input.response, null)) === true;
    if (ok !== true) throw new AppError('wrong_password', 'The passkey could not be verified');
    return;
  }
  await assertCurrentPassword(rt, userId, input.password, ip);
}

export const hasPasskeys = async (rt: Runtime, userId: string): Promise<boolean> => (await countPasskeys(rt.db, userId)) > 0;

const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
