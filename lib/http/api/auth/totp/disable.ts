import { relyingParty } from '@/lib/http/relying-party';
import { disableTotp } from '@/lib/auth/second-factor';
import { operations } from '@/lib/contract/operations';
import { noContent, route } from '@/lib/http/route';

// POST /api/auth/totp/disable — TOTP off, with the current password or a passkey
export const POST = route(operations.totpDisable, async ({ rt, req, body, principal, ip }) => {
  await disableTotp(rt, relyingParty(rt, req), principal, body, ip);
  return noContent();
});
