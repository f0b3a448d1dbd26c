import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { confirmEmail } from '@/lib/users/email-confirmation';

// POST /api/auth/email/confirm — the confirmation link's token; no login (the mailbox is the proof)
export const POST = route(operations.confirmEmail, async ({ rt, body }) => {
  await confirmEmail(rt, body.token);
  return json({ ok: true as const });
});
