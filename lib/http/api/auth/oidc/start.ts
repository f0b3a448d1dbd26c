import { operations } from '@/lib/contract/operations';
import { route } from '@/lib/http/route';
import { redirectResponse } from '@/lib/http/oidc/redirect';
import { startSignIn } from '@/lib/http/oidc/start-sign-in';

// GET /api/auth/oidc/start — 302 to the OpenID provider (or /files?sso_error=<code>)
export const GET = route(operations.oidcStart, async ({ rt, req, ip, query }) => redirectResponse(await startSignIn(rt, req, ip, query)));
