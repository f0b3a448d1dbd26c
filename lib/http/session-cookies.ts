import 'server-only';
import type { Runtime } from '../runtime';
import { ADMIN_COOKIE, clearCookie, COOKIE_MAX_AGE, serializeCookie, USER_COOKIE } from './cookies';
import { isSecureRequest } from './origin';

/** Set-Cookie for a new session: the cookie lives 7 days whatever the session's own expiry. */
export function sessionCookie(rt: Runtime, req: Request, kind: 'admin' | 'member', token: string): string {
  return serializeCookie(kind === 'admin' ? ADMIN_COOKIE : USER_COOKIE, token, {
    maxAge: COOKIE_MAX_AGE,
    secure: isSecureRequest(rt.env, req.headers),
  });
}

export function clearSessionCookies(rt: Runtime, req: Request): string[] {
  const secure = isSecureRequest(rt.env, req.headers);
  return [clearCookie(ADMIN_COOKIE, secure), clearCookie(USER_COOKIE, secure)];
}
