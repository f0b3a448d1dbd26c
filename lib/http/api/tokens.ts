import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { createAccessToken, listAccessTokens } from '@/lib/tokens/manage-tokens';

// GET /api/tokens — the caller's access tokens, a page at a time (a session only, never a token)
export const GET = route(operations.listTokens, async ({ rt, principal, query }) => json(await listAccessTokens(rt, principal, query)));

// POST /api/tokens — a new access token; its secret is in this answer only
export const POST = route(operations.createToken, async ({ rt, principal, body }) => json(await createAccessToken(rt, principal, body), 201));
