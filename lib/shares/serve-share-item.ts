import contentDisposition from 'content-disposition';
import { verifyPassword } from '../auth/passwords';
import { enforceRateLimit } from '../auth/rate-limit';
import { shareUnlockCookie, signUnlock, UNLOCK_MAX_AGE, unlockKey } from '../auth/unlock-cookie';
import { AppError, notFound } from '../errors';
import { serializeCookie } from '../http/cookies';
import { jsonReply, type FastReply, type FastRequest } from '../http/fast';
import { isActiveType } from '../http/mime';
import { passwordPage } from '../http/password-page';
import { readUnlockBody } from '../http/read-body';
import { errorReply } from '../http/reply-errors';
import { sendObject } from '../http/send-object';
import { decodeUrlPath } from '../paths/relative-path';
import { assertMigrated, getRuntime, type Runtime } from '../runtime';
import { isSecureRequest } from '../http/origin';
import { guestAccess, shareSubject } from './access';

const URL_PATTERN = /^\/f\/([^/]+)(?:\/(.*))?$/;
const expired = () => new AppError('expired', 'This share has expired');

/** /f/<id>/<path> (the bytes) and POST /f/<id>/unlock, without the framework. */
export async function serveShareItem(req: FastRequest): Promise<FastReply> {
  try {
    return await handle(await getRuntime(), req);
  } catch (e) {
    return errorReply(e, req);
  }
}

/**
 * The /f/<id> page's gate on the fast path: answers 404, 410 and the 401 password page itself
 * (a page component cannot choose those statuses) and returns null when the page may render.
 */
export async function gateSharePage(req: FastRequest): Promise<FastReply | null> {
  try {
    const rt = await getRuntime();
    await assertMigrated(rt);
    const { id } = parse(req.url);
    if (req.method !== 'GET' && req.method !== 'HEAD') return null;
    const access = await guestAccess(rt, id, req.header('cookie'));
    if (access.state === 'missing') throw notFound('This share does not exist or is offline');
    if (access.state === 'expired') throw expired();
    if (access.state === 'locked') return passwordPage({ status: 401, title: `/f/${id}`, action: `/f/${id}/unlock`, next: `/f/${id}` });
    return null;
  } catch (e) {
    return errorReply(e, req);
  }
}

function parse(url: string): { id: string; rest: string | undefined; query: URLSearchParams } {
  const q = url.indexOf('?');
  const pathname = q < 0 ? url : url.slice(0, q);
  const m = URL_PATTERN.exec(pathname);
  const id = m ? decodeUrlPath(m[1]) : null;
  if (!m || !id) throw notFound();
  return { id, rest: m[2], query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)) };
}

async function handle(rt: Runtime, req: FastRequest): Promise<FastReply> {
  await assertMigrated(rt);
  const { id, rest, query } = parse(req.url);
  if (req.method === 'POST') {
    if (rest === 'unlock') return unlock(rt, req, id);
    throw new AppError('method_not_allowed', 'Only GET and HEAD are allowed here', { Allow: 'GET, HEAD' });
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new AppError('method_not_allowed', 'Only GET and HEAD are allowed here', { Allow: 'GET, HEAD' });
  }
  const access = await guestAccess(rt, id, req.header('cookie'));
  if (access.state === 'missing') throw notFound();
  if (access.state === 'expired') throw expired();
  const path = rest ? decodeUrlPath(rest) : null;
  if (access.state === 'locked') {
    return passwordPage({ status: 401, title: `/f/${id}`, action: `/f/${id}/unlock`, next: `/f/${id}` });
  }
  const item = path === null ? undefined : access.share.items.find((it) => it.relativePath === path);
  if (!item) throw notFound();

  const active = isActiveType(item.contentType);
  const download = query.get('download') === '1' || active;
  const name = item.relativePath.split('/').pop()!;
  const headers: Record<string, string> = {
    'Content-Type': item.contentType,
    'Content-Disposition': contentDisposition(name, { type: download ? 'attachment' : 'inline' }),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, no-cache',
    'Referrer-Policy': 'no-referrer',
  };
  // Member content never runs script on our origin, even if a browser ignored the attachment.
  if (active) headers['Content-Security-Policy'] = 'sandbox';
  return sendObject(req, rt.storage, {
    storageKey: item.storageKey,
    size: Number(item.size),
    etag: item.etag.startsWith('"') ? item.etag : `"${item.etag}"`,
    lastModified: item.createdAt,
    headers,
  });
}

/** POST /f/:id/unlock — form (303 to the share) or JSON (200 + cookie); 401 when wrong. */
async function unlock(rt: Runtime, req: FastRequest, id: string): Promise<FastReply> {
  await enforceRateLimit(rt, 'unlock', req.ip);
  const input = await readUnlockBody(req);
  const access = await guestAccess(rt, id, undefined);
  if (access.state === 'missing') throw notFound();
  if (access.state === 'expired') throw expired();
  const { share } = access;
  const target = `/f/${id}`;
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  if (share.group.passwordHash) {
    if (!(await verifyPassword(input.password, share.group.passwordHash))) {
      if (input.json) return jsonReply(401, { error: 'Wrong password', code: 'wrong_password' });
      return passwordPage({ status: 401, title: target, action: `${target}/unlock`, next: target, error: 'Wrong password. Try again.' });
    }
    const value = signUnlock(await unlockKey(rt), shareSubject(share));
    headers['Set-Cookie'] = serializeCookie(shareUnlockCookie(id), value, {
      maxAge: UNLOCK_MAX_AGE,
      secure: isSecureRequest(rt.env, req),
      path: target,
    });
  }
  if (input.json) return { status: 200, headers: { ...headers, 'Content-Type': 'application/json' }, body: '{"ok":true}' };
  return { status: 303, headers: { ...headers, Location: target }, body: null };
}
