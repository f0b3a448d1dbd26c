import { findUserById } from '@/db/queries/users';
import { enforceRateLimit } from '@/lib/auth/rate-limit';
import { sessionCookie } from '@/lib/http/session-cookies';
import { clientOf } from '@/lib/http/sign-in-response';
import { finishSignIn } from '@/lib/auth/sign-in';
import { operations } from '@/lib/contract/operations';
import { localeOf } from '@/lib/http/locale-of';
import { json, route } from '@/lib/http/route';
import { createAccount } from '@/lib/users/create-account';
import { toUserDto } from '@/lib/users/user-dto';

// POST /api/auth/register — self-registration as a member with the default quota; then signs in
// the one way every sign-in ends (lib/auth/sign-in.ts): with REQUIRE_2FA=all, no session but the
// enrolment challenge, as a password sign-in of the new account would answer. The confirmation
// mail of an address given here goes in the browser's language (picker cookie, Accept-Language).
export const POST = route(operations.register, async ({ rt, req, body, ip }) => {
  await enforceRateLimit(rt, 'register', ip);
  const user = await createAccount(rt, { ...body, role: 'member', quota_bytes: undefined }, `address:${ip}`, localeOf((name) => req.headers.get(name) ?? undefined));
  const row = await findUserById(rt.db, user.id);
  if (!row) throw new Error('the account just made is gone');
  const done = await finishSignIn(rt, row, 'password', clientOf(req, ip));
  if (done.kind === 'second_factor') {
    return json({ second_factor: done.secondFactor, challenge: done.challenge, expires_at: done.expiresAt.toISOString() }, 201);
  }
  return json({ user: toUserDto(done.account), token: done.token, expires_at: done.expiresAt.toISOString() }, 201, {
    'Set-Cookie': sessionCookie(rt, req, 'member', done.token),
  });
});
