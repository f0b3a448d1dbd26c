import { signInMethods } from '@/lib/auth/methods';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';

// GET /api/auth/methods — how one may sign in here
export const GET = route(operations.authMethods, async ({ rt }) => json(signInMethods(rt)));
