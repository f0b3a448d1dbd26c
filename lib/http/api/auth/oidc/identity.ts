import { operations } from '@/lib/contract/operations';
import { json, noContent, route } from '@/lib/http/route';
import { getLinkedIdentity, unlinkIdentity } from '@/lib/auth/oidc/linked-identity';

// GET /api/auth/oidc/identity — the member's linked single sign-on identity
export const GET = route(operations.getOidcIdentity, async ({ rt, principal }) => json(await getLinkedIdentity(rt, principal.user!)));

// DELETE /api/auth/oidc/identity — unlink it (409 when no password would remain)
export const DELETE = route(operations.unlinkOidcIdentity, async ({ rt, principal }) => {
  await unlinkIdentity(rt, principal.user!);
  return noContent();
});
