import { changeAdminToken } from '@/lib/auth/change-admin-token';
import { sessionCookie } from '@/lib/http/session-cookies';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';

// PATCH /api/auth/token — replace the Admin Token; answers with a new admin session
export const PATCH = route(operations.changeAdminToken, async ({ rt, req, body }) => {
  const s = await changeAdminToken(rt, body.token);
  return json(
    { ok: true, token: s.token, expires_at: s.expiresAt.toISOString() },
    200,
    { 'Set-Cookie': sessionCookie(rt, req, 'admin', s.token) },
  );
});
