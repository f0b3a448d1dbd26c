import { enableTotp } from '@/lib/auth/second-factor';
import { clientOf, signInResponse } from '@/lib/http/sign-in-response';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';

// POST /api/auth/totp/enable — a code turns TOTP on; ten recovery codes (and the session when enrolling at sign-in)
export const POST = route(operations.totpEnable, async ({ rt, req, body, principal, ip }) => {
  const r = await enableTotp(rt, { principal, challenge: body.challenge }, body.code, clientOf(req, ip));
  return r.session ? signInResponse(rt, req, r.session, { recovery_codes: r.recoveryCodes }) : json({ recovery_codes: r.recoveryCodes });
});
