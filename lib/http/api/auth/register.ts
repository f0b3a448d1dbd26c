import { enforceRateLimit } from '@/lib/auth/rate-limit';
import { sessionCookie } from '@/lib/auth/session-cookies';
import { createMemberSession } from '@/lib/auth/sessions';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { createAccount } from '@/lib/users/create-account';

// POST /api/auth/register — self-registration as a member with the default quota; signs in
export const POST = route(operations.register, async ({ rt, req, body, ip }) => {
  await enforceRateLimit(rt, 'register', ip);
  const user = await createAccount(rt, { ...body, role: 'member', quota_bytes: undefined }, `address:${ip}`);
  const s = await createMemberSession(rt, user.id, { ip, userAgent: req.headers.get('user-agent') ?? '' });
  return json({ user, token: s.token, expires_at: s.expiresAt.toISOString() }, 201, {
    'Set-Cookie': sessionCookie(rt, req, 'member', s.token),
  });
});
