import { operations } from '@/lib/contract/operations';
import { route } from '@/lib/http/route';
import { finishSignIn } from '@/lib/http/oidc/finish-sign-in';
import { redirectResponse } from '@/lib/http/oidc/redirect';

// GET /api/auth/oidc/callback — the provider's answer: 302 with the session cookie, or to /files?sso_error=<code>
export const GET = route(operations.oidcCallback, async ({ rt, req, ip }) => redirectResponse(await finishSignIn(rt, req, ip)));
