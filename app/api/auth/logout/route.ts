import { clearSessionCookies } from '@/lib/auth/session-cookies';
import { revokeSession } from '@/lib/auth/sessions';
import { operations } from '@/lib/contract/operations';
import { ADMIN_COOKIE, parseCookies, USER_COOKIE } from '@/lib/http/cookies';
import { route } from '@/lib/http/route';

// POST /api/auth/logout — revokes the presented session(s) and clears both cookies (route() refuses
// another site's browser first: the operation's refuseCrossSite)
export const POST = route(operations.logout, async ({ rt, req }) => {
  const cookies = parseCookies(req.headers.get('cookie'));
  const bearer = /^Bearer[ ]+(\S+)/i.exec(req.headers.get('authorization') ?? '')?.[1];
  for (const token of [cookies[USER_COOKIE], cookies[ADMIN_COOKIE], bearer]) {
    if (token) await revokeSession(rt, token);
  }
  const res = Response.json({ ok: true });
  for (const c of clearSessionCookies(rt, req)) res.headers.append('Set-Cookie', c);
  return res;
});
