import { setterKey } from '@/lib/auth/password-setting';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { createAccount } from '@/lib/users/create-account';
import { listAccounts } from '@/lib/users/list-accounts';

// GET /api/users — a page of users with quota and usage, newest first (administrator)
export const GET = route(operations.listUsers, async ({ rt, query }) => json(await listAccounts(rt, query)));

// POST /api/users — create a user (administrator); quota defaults to the setting
export const POST = route(operations.createUser, async ({ rt, body, principal, auditAs }) => {
  const user = await createAccount(rt, body, setterKey(principal));
  auditAs(user.username);
  return json({ user }, 201);
});
