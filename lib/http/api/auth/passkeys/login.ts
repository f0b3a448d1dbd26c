import { signInWithPasskey } from '@/lib/auth/passkeys';
import { relyingParty } from '@/lib/http/relying-party';
import { clientOf, signInResponse } from '@/lib/http/sign-in-response';
import { operations } from '@/lib/contract/operations';
import { route } from '@/lib/http/route';

// POST /api/auth/passkeys/login — sign in with a discoverable credential; ends in finishSignIn as every sign-in
export const POST = route(operations.passkeyLogin, async ({ rt, req, body, ip }) =>
  signInResponse(rt, req, await signInWithPasskey(rt, relyingParty(rt, req), body.response, clientOf(req, ip))),
);
