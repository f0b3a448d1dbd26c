import { assertNotAccessToken } from '@/lib/auth/scopes';
import { setterKey } from '@/lib/auth/password-setting';
import { operations } from '@/lib/contract/operations';
import { json, noContent, route } from '@/lib/http/route';
import { deleteAccount } from '@/lib/users/delete-account';
import { updateAccount } from '@/lib/users/update-account';

// PATCH /api/users/:id — quota, status, role, profile or password (administrator)
export const PATCH = route(operations.updateUser, async ({ rt, params, body, principal }) => {
  if (body.password !== undefined) assertNotAccessToken(principal, 'change passwords');
  return json({ user: await updateAccount(rt, params.id, body, setterKey(principal)) });
});

// DELETE /api/users/:id — as account deletion (administrator)
export const DELETE = route(operations.deleteUser, async ({ rt, params }) => {
  await deleteAccount(rt, params.id);
  return noContent();
});
