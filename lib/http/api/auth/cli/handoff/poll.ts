import { pollHandoff } from '@/lib/auth/cli-handoff';
import { clientOf } from '@/lib/http/sign-in-response';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { toUserDto } from '@/lib/users/user-dto';

// POST /api/auth/cli/handoff/poll — the CLI's wait: pending, then once the approved member's session
export const POST = route(operations.pollCliHandoff, async ({ rt, req, body, ip }) => {
  const r = await pollHandoff(rt, body, clientOf(req, ip));
  if (r.status === 'pending') return json(r);
  const s = r.session;
  return json({ status: r.status, role: s.role, user: toUserDto(s.account), token: s.token, expires_at: s.expiresAt.toISOString() });
});
