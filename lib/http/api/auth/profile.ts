import { findUserById } from '@/db/queries/users';
import { assertReauthenticated } from '@/lib/auth/reauthenticate';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { updateProfile } from '@/lib/users/update-profile';

// PATCH /api/auth/profile — the member's own display name, email and phone; a new email needs
// the current password again (lib/auth/reauthenticate.ts)
export const PATCH = route(operations.updateProfile, async ({ rt, principal, body, ip }) => {
  if (principal.kind !== 'user') throw new Error('unreachable');
  const { current_password: currentPassword, ...profile } = body;
  // The account as stored now (the session's copy may be a cached one).
  const current = profile.email === undefined ? null : await findUserById(rt.db, principal.user.id);
  if (current && profile.email !== current.email) {
    await assertReauthenticated(rt, { ...principal, user: current }, currentPassword, ip, 'change the e-mail');
  }
  return json({ user: await updateProfile(rt, principal.user.id, profile) });
});
