import { roleOf } from '@/lib/auth/principal';
import { enforceRateLimit } from '@/lib/auth/rate-limit';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';

// GET /api/auth/check — whether the caller holds a valid session (never 401)
export const GET = route(operations.checkAuth, async ({ rt, ip, principal }) => {
  await enforceRateLimit(rt, 'check', ip);
  return json({ authenticated: principal !== null, role: principal ? roleOf(principal) : null });
});
