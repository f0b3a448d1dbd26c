import { recordAdminLogin } from '@/lib/events/audit';
import { logIn } from '@/lib/auth/log-in';
import { enforceRateLimit } from '@/lib/auth/rate-limit';
import { sessionCookie } from '@/lib/auth/session-cookies';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';

// POST /api/auth/login — Admin Token or username/password; sets the session cookie
export const POST = route(operations.login, async ({ rt, req, body, ip }) => {
  await enforceRateLimit(rt, 'login', ip);
  const r = await logIn(rt, body, ip);
  if (r.kind === 'admin') await recordAdminLogin(rt, ip);
  return json(
    { role: r.role, user: r.user, token: r.token, expires_at: r.expiresAt.toISOString() },
    200,
    { 'Set-Cookie': sessionCookie(rt, req, r.kind, r.token) },
  );
});
