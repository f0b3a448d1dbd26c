import { changeOwnPassword } from '@/lib/auth/change-password';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';

// POST /api/auth/password — the member's own new password, with the current one; other sessions end
export const POST = route(operations.changePassword, async ({ rt, body, principal, ip }) => {
  await changeOwnPassword(rt, principal, body, ip);
  return json({ ok: true });
});
