import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { authMethods } from '@/lib/auth/oidc/auth-methods';

// GET /api/auth/methods — the ways to sign in this service offers
export const GET = route(operations.authMethods, async ({ rt }) => json(authMethods(rt)));
