import 'server-only';
import { reserveGuestGroup } from '@/db/queries/requests';
import { randomId, randomToken, sha256Hex } from '../auth/crypto';
import { verifyPassword } from '../auth/passwords';
import type { Cookies } from '../auth/unlock-cookie';
import { assertUnderRateLimit, countRateLimit, enforceRateLimit } from '../auth/rate-limit';
import { UPLOAD_TOKEN_PREFIX, type RequestUploadInput } from '../contract/requests';
import type { InitResult } from '../contract/upload-protocol';
import { AppError } from '../errors';
import { formatBytes, formatBytesPair } from '../format-bytes';
import type { Runtime } from '../runtime';
import { capabilities } from '../shares/capabilities';
import { checkQuota, planFiles, startUploads, type PlannedFile } from '../shares/start-uploads';
import { describeTypes, nameAllowed } from './allowed-types';
import { effectiveLimits, expiredError, fullError, guestRequest, isExpired, isFull, missingError, ownerMayReceive } from './request-gate';
import type { FileRequestRow } from '@/db/schema';

/** Seconds a guest is asked to wait when the request already holds its share of unfinished uploads. */
const PENDING_RETRY_SECONDS = 60;

/**
 * Every limit of a request on the files of one upload (at init on the declared files, and at
 * complete again on what the store holds): count, bytes, and each name's type.
 */
export function checkRequestFiles(rt: Runtime, r: FileRequestRow, files: { relativePath: string; size: number; contentType?: string }[]): void {
  const { maxFiles, maxBytes } = effectiveLimits(rt.env, r);
  if (files.length > maxFiles) {
    throw new AppError('too_many_files', `This request takes at most ${maxFiles} ${maxFiles === 1 ? 'file' : 'files'} in one upload; you chose ${files.length}`);
  }
  const total = files.reduce((n, f) => n + f.size, 0);
  if (total > maxBytes) {
    const [max, got] = formatBytesPair(maxBytes, total);
    throw new AppError('too_large', `This request takes at most ${max} in all; these files are ${got}`);
  }
  const refused = files.find((f) => !nameAllowed(r.allowedTypes, f.relativePath, f.contentType));
  if (refused) {
    throw new AppError('type_not_allowed', `${refused.relativePath} is not a type this request takes (${describeTypes(r.allowedTypes ?? [])})`);
  }
}

/**
 * POST /api/requests/:id/upload: a guest's init. Rate-limited per address and per request
 * before anything is read; then the request's gate (404 closed/unknown, 410 expired or full,
 * 401 locked without its cookie or password), its limits on the declared files, and — under a
 * lock on the request and its owner — its bound on unfinished uploads, the guests' own budget
 * and the owner's quota. An init that stores no part is discarded after GUEST_IDLE_UPLOAD_MINUTES.
 * The answer is a share init plus an upload token, the only credential of this upload.
 */
export async function initRequestUpload(
  rt: Runtime,
  id: string,
  input: RequestUploadInput,
  client: { ip: string; cookies: Cookies; origin: string },
): Promise<InitResult & { uploadToken: string }> {
  await enforceRateLimit(rt, 'requestInit', client.ip);
  // The request's own budget counts accepted inits only (below): refused ones, from however
  // many addresses, must not lock a real sender out.
  await assertUnderRateLimit(rt, 'requestInitPerRequest', id);
  const gate = await guestRequest(rt, id, client.cookies);
  if (gate.state === 'missing') throw missingError();
  if (gate.state === 'expired') throw expiredError();
  const r = gate.found.request;
  if (gate.state === 'locked') {
    if (!input.password) throw new AppError('unauthenticated', 'This file request is protected: enter its password');
    await enforceRateLimit(rt, 'unlock', client.ip);
    if (!(await verifyPassword(input.password, r.passwordHash!, client.ip))) throw new AppError('wrong_password', 'Wrong password');
  }
  if (isFull(r)) throw fullError();
  const name = input.name?.trim() ?? '';
  if (r.requireName && !name) throw new AppError('invalid_request', 'name: this request asks for your name');
  const { files, reserve } = planFiles(input.files);
  checkRequestFiles(rt, r, files);

  const caps = await capabilities(rt, client.origin);
  const groupId = randomId(16);
  const uploadToken = `${UPLOAD_TOKEN_PREFIX}${randomToken(32)}`;
  await reserveGuestGroup(
    rt.db,
    {
      id: groupId,
      userId: r.userId,
      note: r.note,
      status: 'offline',
      uploadState: 'pending',
      uploadMode: caps.mode,
      partSize: caps.partSize,
      reservedBytes: reserve,
      requestId: r.id,
      uploadTokenHash: sha256Hex(uploadToken),
      receivedName: name,
      receivedEmail: input.email ?? '',
      receivedMessage: input.message ?? '',
    },
    r.id,
    (now) => {
      // Closed, deleted, expired or filled while this init was being checked.
      if (!now || now.request.status !== 'open' || !ownerMayReceive(rt.env, { ownerRole: now.owner.role, ownerStatus: now.owner.status })) throw missingError();
      if (isExpired(now.request)) throw expiredError();
      if (isFull(now.request)) throw fullError();
      checkRequestFiles(rt, now.request, files);
      if (now.pendingUploads >= rt.env.requestMaxPending) {
        throw new AppError('rate_limited', 'Too many uploads to this request are under way right now: try again in a minute', {
          'Retry-After': String(PENDING_RETRY_SECONDS),
        });
      }
      // Guests reserve against a budget of their own: the owner's own caps (MAX_PENDING_UPLOADS,
      // MAX_PENDING_FILES) count the owner's uploads only, and guests of all their requests
      // together get as many again.
      const held = now.guestsHeld;
      if (held.uploads >= rt.env.maxPendingUploads || held.files + files.length > rt.env.maxPendingFiles) {
        throw new AppError('rate_limited', 'Too many uploads to this person\'s requests are under way right now: try again in a minute', {
          'Retry-After': String(PENDING_RETRY_SECONDS),
        });
      }
      // Every byte already reserved counts, the owner's and other guests'; and an administrator's
      // quota too: guests are never the administrator (issue 39, item 7).
      try {
        checkQuota(Number(now.owner.quotaBytes), Number(now.owner.usedBytes), now.ownerReserved, reserve);
      } catch {
        throw new AppError('quota_exceeded', 'The person who asked for these files has no room left for them: tell them, so they can free some space');
      }
    },
  );
  await countRateLimit(rt, 'requestInitPerRequest', id);
  const started = await startUploads(rt, groupId, caps, files as PlannedFile[], r.userId);
  return { ...started, uploadToken };
}
