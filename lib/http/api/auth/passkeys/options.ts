import { passkeyOptions } from '@/lib/auth/passkeys';
import { relyingParty } from '@/lib/http/relying-party';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';

// POST /api/auth/passkeys/options — WebAuthn options with a single-use challenge kept in the database
export const POST = route(operations.passkeyOptions, async ({ rt, req, principal, body, ip }) => json(await passkeyOptions(rt, relyingParty(rt, req), principal, body, ip)));
