import { logOut } from '@/lib/http/log-out';
import { operations } from '@/lib/contract/operations';
import { route } from '@/lib/http/route';

// POST /api/auth/logout — revokes the presented session(s) and clears both cookies (route() refuses
// another site's browser first: the operation's refuseCrossSite)
export const POST = route(operations.logout, async ({ rt, req }) => {
  const res = Response.json({ ok: true });
  for (const c of await logOut(rt, req)) res.headers.append('Set-Cookie', c);
  return res;
});
