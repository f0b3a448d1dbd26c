import 'server-only';
import { AppError } from '../errors';
import { serializeCookie } from './cookies';
import { jsonReply, type FastReply, type FastRequest } from './fast';
import { passwordPage } from './password-page';
import { localeOf } from './locale-of';
import { jsonErrorReply } from './json-error-reply';
import { readUnlockBody } from './read-body';
import type { Runtime } from '../runtime';
import { verifyPassword } from '../auth/passwords';
import { enforceRateLimit } from '../auth/rate-limit';
import { signUnlock, UNLOCK_MAX_AGE, unlockKey, type UnlockSubject } from '../auth/unlock-cookie';

/** What a password-protected resource (a hosted project, a share) tells the unlock flow. */
export interface UnlockTarget {
  /** The resource's subject; `passwordHash` null when it has no password (then it just opens). */
  subject: Omit<UnlockSubject, 'passwordHash'> & { passwordHash: string | null };
  cookie: { name: string; path: string; secure: boolean };
  /** The password page: what it guards (a project by its `title`), its form action and where its language picker posts. */
  page: { title?: string; action: string; subject: 'share' | 'request' | 'project'; pickerAction?: string };
  /** Where the form goes back to on success (already checked to stay inside the resource). */
  next: string;
}

/**
 * The one unlock use case of /p/<slug>/unlock and /f/<id>/unlock: rate limit per address, read
 * the form or JSON, check the password, set the signed cookie. Form → 303 to `next` (401
 * password page when wrong); JSON → 200 `{ok:true}` (401 `wrong_password` when wrong).
 * `find` looks the resource up (and throws its own 404/410) once the body has been read.
 */
export async function unlockWithPassword(
  rt: Runtime,
  req: FastRequest,
  find: (next: string | undefined) => Promise<UnlockTarget>,
): Promise<FastReply> {
  await enforceRateLimit(rt, 'unlock', req.ip);
  const input = await readUnlockBody(req);
  const target = await find(input.next);
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  const { passwordHash } = target.subject;
  if (passwordHash) {
    if (!(await verifyPassword(input.password, passwordHash, req.ip))) {
      if (input.json) return jsonErrorReply(wrongPassword());
      return passwordPage({ status: 401, ...target.page, next: target.next, wrong: true, locale: localeOf((name) => req.header(name)) });
    }
    const value = signUnlock(await unlockKey(rt), { ...target.subject, passwordHash });
    headers['Set-Cookie'] = serializeCookie(target.cookie.name, value, {
      maxAge: UNLOCK_MAX_AGE,
      secure: target.cookie.secure,
      path: target.cookie.path,
    });
  }
  if (input.json) return jsonReply(200, { ok: true }, headers);
  return { status: 303, headers: { ...headers, Location: target.next }, body: null };
}

const wrongPassword = () => new AppError('wrong_password', 'Wrong password');
