import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { updateProfile } from '@/lib/users/update-profile';

// PATCH /api/auth/profile — the member's own display name, email and phone
export const PATCH = route(operations.updateProfile, async ({ rt, principal, body }) => {
  if (principal?.kind !== 'user') throw new Error('unreachable');
  return json({ user: await updateProfile(rt, principal.user.id, body) });
});
