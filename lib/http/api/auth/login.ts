import { recordAdminLogin } from '@/lib/events/audit';
import { logIn } from '@/lib/auth/log-in';
import { enforceRateLimit } from '@/lib/auth/rate-limit';
import { clientOf, signInResponse } from '@/lib/http/sign-in-response';
import { operations } from '@/lib/contract/operations';
import { route } from '@/lib/http/route';

// POST /api/auth/login — Admin Token or username/password; sets the session cookie, or answers
// the second factor the sign-in waits for (lib/auth/sign-in.ts)
export const POST = route(operations.login, async ({ rt, req, body, ip }) => {
  await enforceRateLimit(rt, 'login', ip);
  const r = await logIn(rt, body, clientOf(req, ip));
  if (r.kind === 'admin') await recordAdminLogin(rt, ip);
  return signInResponse(rt, req, r);
});
