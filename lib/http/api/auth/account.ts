import { clearSessionCookies } from '@/lib/http/session-cookies';
import { operations } from '@/lib/contract/operations';
import { route } from '@/lib/http/route';
import { deleteAccount } from '@/lib/users/delete-account';

// DELETE /api/auth/account — the member deletes their account, shares, objects and sessions
export const DELETE = route(operations.deleteOwnAccount, async ({ rt, req, principal }) => {
  if (principal?.kind !== 'user') throw new Error('unreachable');
  await deleteAccount(rt, principal.user.id);
  const res = new Response(null, { status: 204 });
  for (const c of clearSessionCookies(rt, req)) res.headers.append('Set-Cookie', c);
  return res;
});
