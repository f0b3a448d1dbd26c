import { listOwnPasskeys, registerPasskey } from '@/lib/auth/passkeys';
import { relyingParty } from '@/lib/http/relying-party';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';

// GET /api/auth/passkeys — the member's passkeys
export const GET = route(operations.listPasskeys, async ({ rt, principal, ip }) => json({ passkeys: await listOwnPasskeys(rt, principal, ip) }));

// POST /api/auth/passkeys — the browser's answer to register options becomes a named passkey
export const POST = route(operations.registerPasskey, async ({ rt, req, principal, body, ip }) =>
  json({ passkey: await registerPasskey(rt, relyingParty(rt, req), principal, body, ip) }, 201),
);
