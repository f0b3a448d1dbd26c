import 'server-only';
import * as client from 'openid-client';
import { isSecureRequest, ownOrigin } from '../origin';
import type { Runtime } from '../../runtime';
import { navigatingMember } from '../guards';
import { flowCookie, FLOW_MAX_AGE } from './flow-cookie';
import { providerConfig, ssoSettings } from '../../auth/oidc/provider';
import { returnToPath } from '../../auth/oidc/return-to';
import { failedSignIn, type Redirect } from './redirect';
import { SsoError } from '../../auth/oidc/sso-error';

export const CALLBACK_PATH = '/api/auth/oidc/callback';

/**
 * `GET /api/auth/oidc/start`: sends the browser to the provider with a fresh `state`, `nonce`
 * and PKCE challenge, keeping them in a short signed cookie. `link=1` links the identity to the
 * member signed in here instead of signing in (a navigation from this origin's pages only).
 */
export async function startSignIn(rt: Runtime, req: Request, ip: string, query: { return_to?: string; link?: string }): Promise<Redirect> {
  const secure = isSecureRequest(rt.env, req.headers);
  try {
    const settings = await ssoSettings(rt, ip);
    const origin = ownOrigin(rt.env, req.headers, req.url);
    const returnTo = returnToPath(query.return_to, origin);
    if (returnTo === null) throw new SsoError('invalid_return_to', 'return_to must be a page of this site');
    let linkUserId: string | null = null;
    if (query.link === '1') {
      const member = await navigatingMember(rt, req.headers);
      if (!member) throw new SsoError('unauthenticated', 'Sign in before linking an account');
      linkUserId = member.user.id;
    }
    const config = await providerConfig(settings);
    const verifier = client.randomPKCECodeVerifier();
    const flow = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier,
      returnTo,
      linkUserId,
      expiresAt: Date.now() + FLOW_MAX_AGE * 1000,
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: `${origin}${CALLBACK_PATH}`,
      scope: settings.scopes,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    return { location: url.href, cookies: [await flowCookie(rt, flow, secure)] };
  } catch (err) {
    return failedSignIn(err, secure);
  }
}
