import { roleOf } from '@/lib/auth/principal';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { toUserDto } from '@/lib/users/user-dto';

// GET /api/auth/me — the caller's role, and profile with quota for a user session
export const GET = route(operations.me, async ({ principal }) => {
  const p = principal;
  return json({ role: roleOf(p), user: p.kind === 'user' ? toUserDto(p.user) : null });
});
