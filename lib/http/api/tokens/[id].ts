import { operations } from '@/lib/contract/operations';
import { noContent, route } from '@/lib/http/route';
import { revokeAccessToken } from '@/lib/tokens/manage-tokens';

// DELETE /api/tokens/:id — revoke one of the caller's tokens; it stops working at once
export const DELETE = route(operations.deleteToken, async ({ rt, principal, params }) => {
  await revokeAccessToken(rt, principal, params.id);
  return noContent();
});
