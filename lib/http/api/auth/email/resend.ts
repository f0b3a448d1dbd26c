import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { resendConfirmation } from '@/lib/users/email-confirmation';
import { toUserDto } from '@/lib/users/user-dto';

// POST /api/auth/email/resend — a new confirmation link for the member's unconfirmed address
export const POST = route(operations.resendEmailConfirmation, async ({ rt, principal }) => {
  if (principal?.kind !== 'user') throw new Error('unreachable');
  return json({ user: toUserDto(await resendConfirmation(rt, principal.user)) });
});
