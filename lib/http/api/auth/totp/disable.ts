import { disableTotp } from '@/lib/auth/second-factor';
import { operations } from '@/lib/contract/operations';
import { noContent, route } from '@/lib/http/route';

// POST /api/auth/totp/disable — TOTP off, with the current password
export const POST = route(operations.totpDisable, async ({ rt, body, principal, ip }) => {
  await disableTotp(rt, principal, body, ip);
  return noContent();
});
