import 'server-only';
import { clearFlowCookie } from './flow-cookie';
import { SsoError } from '../../auth/oidc/sso-error';

/** Where a step of the sign-in sends the browser, and the cookies it sets on the way. */
export interface Redirect {
  location: string;
  cookies: string[];
}

export const SSO_ERROR_PAGE = '/files';

/** /files?sso_error=<code>, the flow's cookie cleared: every failure ends the same way. */
export function failedSignIn(err: unknown, secure: boolean): Redirect {
  const code = err instanceof SsoError ? err.code : 'internal_error';
  if (!(err instanceof SsoError)) console.error('OIDC sign-in failed:', err);
  return { location: `${SSO_ERROR_PAGE}?sso_error=${code}`, cookies: [clearFlowCookie(secure)] };
}

/** The answer a route gives for a Redirect: 302, never cached. */
export function redirectResponse(r: Redirect): Response {
  const headers = new Headers({ Location: r.location, 'Cache-Control': 'no-store' });
  for (const c of r.cookies) headers.append('Set-Cookie', c);
  return new Response(null, { status: 302, headers });
}
