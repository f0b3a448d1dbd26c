import { setUpTotp } from '@/lib/auth/second-factor';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';

// POST /api/auth/totp/setup — a new secret (session, or an enrolment challenge)
export const POST = route(operations.totpSetup, async ({ rt, body, principal, ip }) =>
  json(await setUpTotp(rt, { principal, challenge: body.challenge }, ip)),
);
