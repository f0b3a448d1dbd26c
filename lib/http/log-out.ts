import 'server-only';
import { ADMIN_COOKIE, parseCookies, USER_COOKIE } from './cookies';
import type { Runtime } from '../runtime';
import { bearerToken } from './guards';
import { clearSessionCookies } from './session-cookies';
import { revokeSession } from '../auth/sessions';

/** POST /api/auth/logout: revokes every session the request presents; the cookies that clear both. */
export async function logOut(rt: Runtime, req: Request): Promise<string[]> {
  const cookies = parseCookies(req.headers.get('cookie'));
  for (const token of [cookies[USER_COOKIE], cookies[ADMIN_COOKIE], bearerToken(req.headers)]) {
    if (token) await revokeSession(rt, token);
  }
  return clearSessionCookies(rt, req);
}
