import { relyingParty } from '@/lib/http/relying-party';
import { passSecondFactor } from '@/lib/auth/second-factor';
import { clientOf, signInResponse } from '@/lib/http/sign-in-response';
import { operations } from '@/lib/contract/operations';
import { route } from '@/lib/http/route';

// POST /api/auth/login/second-factor — a TOTP code, a recovery code or a passkey for a sign-in's challenge; the session
export const POST = route(operations.loginSecondFactor, async ({ rt, req, body, ip }) =>
  signInResponse(rt, req, await passSecondFactor(rt, relyingParty(rt, req), body, clientOf(req, ip))),
);
