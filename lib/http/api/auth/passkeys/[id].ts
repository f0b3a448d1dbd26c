import { removeOwnPasskey, renameOwnPasskey } from '@/lib/auth/passkeys';
import { relyingParty } from '@/lib/http/relying-party';
import { operations } from '@/lib/contract/operations';
import { json, noContent, route } from '@/lib/http/route';

// PATCH /api/auth/passkeys/:id — rename one of the member's passkeys
export const PATCH = route(operations.renamePasskey, async ({ rt, principal, params, body, ip }) =>
  json({ passkey: await renameOwnPasskey(rt, principal, params.id, body.name, ip) }),
);

// DELETE /api/auth/passkeys/:id — remove one; the last needs the password or a passkey again
export const DELETE = route(operations.deletePasskey, async ({ rt, req, principal, params, body, ip }) => {
  await removeOwnPasskey(rt, relyingParty(rt, req), principal, params.id, body, ip);
  return noContent();
});
