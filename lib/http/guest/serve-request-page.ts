import 'server-only';
import { requestUnlockCookie } from '../../auth/unlock-cookie';
import { unlockWithPassword } from '../unlock-with-password';
import { AppError } from '../../errors';
import { parseCookies } from '../cookies';
import type { FastReply, FastRequest } from '../fast';
import { isSecureRequest } from '../origin';
import { passwordPage } from '../password-page';
import { localeOf } from '../locale-of';
import { errorReply } from '../reply-errors';
import { assertMigrated } from '../../runtime';
import { expiredError, fullError, guestRequest, missingError, requestSubject } from '../../requests/request-gate';

const URL_PATTERN = /^\/r\/([^/?]+)(?:\/([^?]*))?(?:\?.*)?$/;

function idOf(url: string): { id: string; rest: string | undefined } {
  const m = URL_PATTERN.exec(url);
  let id: string | null = null;
  try {
    id = m ? decodeURIComponent(m[1]) : null;
  } catch {
    id = null;
  }
  if (!m || !id) throw missingError();
  return { id, rest: m[2] || undefined };
}

/**
 * The /r/<id> page's gate on the fast path: 404 (unknown, closed, deleted), 410 (expired or
 * full) and the 401 password page, each with its status; null when the page may render.
 * Opening the link consumes nothing (mail scanners open every link).
 */
export async function gateRequestPage(req: FastRequest): Promise<FastReply | null> {
  try {
    const rt = req.rt;
    await assertMigrated(rt);
    if (req.method !== 'GET' && req.method !== 'HEAD') return null;
    const { id } = idOf(req.url);
    const gate = await guestRequest(rt, id, parseCookies(req.header('cookie')));
    if (gate.state === 'missing') throw missingError();
    if (gate.state === 'expired') throw expiredError();
    if (gate.state === 'locked') return passwordPage({ status: 401, subject: 'request', locale: localeOf((name) => req.header(name)), action: `/r/${id}/unlock`, next: `/r/${id}` });
    if (gate.state === 'full') throw fullError();
    return null;
  } catch (e) {
    return errorReply(e, req);
  }
}

/** POST /r/<id>/unlock: as the share unlock; cookie htmls_request_unlock_<id> on Path=/r/<id>. */
export async function serveRequestUnlock(req: FastRequest): Promise<FastReply> {
  try {
    const rt = req.rt;
    await assertMigrated(rt);
    const { id, rest } = idOf(req.url);
    if (rest !== 'unlock') throw missingError();
    if (req.method !== 'POST') throw new AppError('method_not_allowed', 'Use POST', { Allow: 'POST' });
    return await unlockWithPassword(rt, req, async () => {
      const gate = await guestRequest(rt, id, {});
      if (gate.state === 'missing') throw missingError();
      if (gate.state === 'expired') throw expiredError();
      const r = gate.found.request;
      const target = `/r/${id}`;
      return {
        subject: { ...requestSubject(r), passwordHash: r.passwordHash },
        cookie: { name: requestUnlockCookie(id), path: target, secure: isSecureRequest(rt.env, req) },
        page: { subject: 'request', action: `${target}/unlock` },
        next: target,
      };
    });
  } catch (e) {
    return errorReply(e, req);
  }
}
