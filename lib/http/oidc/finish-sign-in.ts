import 'server-only';
import * as client from 'openid-client';
import { findIdentity, insertIdentity, touchIdentity } from '@/db/queries/oidc-identities';
import { findUserById } from '@/db/queries/users';
import type { UserRow } from '@/db/schema';
import type { OidcSettings } from '../../env';
import { headerOf, isSecureRequest, ownOrigin } from '../origin';
import type { Runtime } from '../../runtime';
import { sessionCookie } from '../session-cookies';
import { finishSignIn as finishMemberSignIn } from '../../auth/sign-in';
import { syncAdminRole, type ProviderClaims } from '../../auth/oidc/accounts';
import { createSsoMember } from '../../users/create-sso-member';
import { clearFlowCookie, readFlow, type OidcFlow } from './flow-cookie';
import { providerConfig, ssoSettings } from '../../auth/oidc/provider';
import { failedSignIn, type Redirect } from './redirect';
import { withQueryParam } from '../../auth/oidc/return-to';
import { SsoError } from '../../auth/oidc/sso-error';
import { CALLBACK_PATH } from './start-sign-in';

/** The query parameter that tells the console which account the new session is (lib/client/console-session.ts). */
export const SSO_ACCOUNT_PARAM = 'sso_account';
export const SSO_LINKED_PARAM = 'sso_linked';
/** In the fragment of /files: the sign-in waits for its second factor (`required`) or enrolment (`enroll`), with its challenge. */
export const SSO_SECOND_FACTOR_PARAM = 'sso_second_factor';

/**
 * `GET /api/auth/oidc/callback`: checks the provider's answer against the flow this browser
 * started (state, then PKCE and nonce and the ID token's issuer and audience, by openid-client),
 * finds the account linked to the identity's `iss` + `sub` — never by e-mail — and signs it in;
 * or links the identity to the member who started a `link=1` flow; or, with OIDC_SIGNUP=on,
 * creates a member for an identity linked to nobody. Every failure is a redirect to
 * /files?sso_error=<code>, with no session.
 */
export async function finishSignIn(rt: Runtime, req: Request, ip: string): Promise<Redirect> {
  const secure = isSecureRequest(rt.env, req.headers);
  try {
    const settings = await ssoSettings(rt, ip);
    const params = new URL(req.url).searchParams;
    const flow = await readFlow(rt, headerOf(req.headers, 'cookie'));
    if (!flow || params.get('state') !== flow.state) throw new SsoError('state_mismatch', 'This sign-in was not started in this browser, or took too long');
    if (params.has('error')) throw new SsoError('provider_error', 'The provider refused the sign-in');
    const claims = await redeemCode(settings, new URL(`${ownOrigin(rt.env, req.headers, req.url)}${CALLBACK_PATH}?${params}`), flow);
    if (flow.linkUserId) {
      await linkIdentity(rt, flow.linkUserId, claims);
      return { location: withQueryParam(flow.returnTo, SSO_LINKED_PARAM, '1'), cookies: [clearFlowCookie(secure)] };
    }
    const user = await accountFor(rt, settings, claims);
    // The one way any sign-in becomes a session (lib/auth/sign-in.ts): with a second factor
    // enrolled, or required and not yet enrolled, no session but its challenge, handed to the
    // console in the fragment (never sent to a server, nor in a Referer).
    const done = await finishMemberSignIn(rt, user, 'oidc', { ip, userAgent: headerOf(req.headers, 'user-agent') ?? '' });
    if (done.kind === 'second_factor') {
      return { location: `/files#${SSO_SECOND_FACTOR_PARAM}=${done.secondFactor}&challenge=${encodeURIComponent(done.challenge)}`, cookies: [clearFlowCookie(secure)] };
    }
    return {
      location: withQueryParam(flow.returnTo, SSO_ACCOUNT_PARAM, user.id),
      cookies: [clearFlowCookie(secure), sessionCookie(rt, req, 'member', done.token)],
    };
  } catch (err) {
    return failedSignIn(err, secure);
  }
}

/** Trades the code for tokens (PKCE verifier, state, nonce, issuer and audience checked) and reads the claims. */
async function redeemCode(settings: OidcSettings, callbackUrl: URL, flow: OidcFlow): Promise<ProviderClaims> {
  const config = await providerConfig(settings);
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
  } catch (err) {
    console.warn('OIDC: the provider\'s answer was refused:', (err as Error).message);
    throw new SsoError('invalid_response', 'The provider\'s answer did not check out');
  }
  const idClaims = tokens.claims();
  if (!idClaims || typeof idClaims.sub !== 'string' || !idClaims.sub) throw new SsoError('invalid_response', 'The provider sent no identity');
  let userinfo: Record<string, unknown> = {};
  if (tokens.access_token && config.serverMetadata().userinfo_endpoint) {
    try {
      // The subject must be the ID token's: openid-client refuses another.
      userinfo = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
    } catch (err) {
      console.warn('OIDC: userinfo failed:', (err as Error).message);
      throw new SsoError('provider_unavailable', 'The provider did not say who signed in');
    }
  }
  // The signed ID token's own claims win; `iss` and `sub` are always its.
  return { ...userinfo, ...idClaims, iss: idClaims.iss, sub: idClaims.sub };
}

/** The account the identity signs in to, made when OIDC_SIGNUP=on; its role as the admin group says. */
async function accountFor(rt: Runtime, settings: OidcSettings, claims: ProviderClaims): Promise<UserRow> {
  const email = typeof claims.email === 'string' ? claims.email : '';
  const found = await findIdentity(rt.db, claims.iss, claims.sub);
  let user: UserRow;
  if (found) {
    user = found.user;
    await touchIdentity(rt.db, found.identity.id, email);
  } else {
    // No link by e-mail, ever: an identity whose address matches a member's is still nobody's.
    if (!settings.signup) throw new SsoError('not_linked', 'No account is linked to this identity');
    user = await createSsoMember(rt, claims);
  }
  // A disabled account answers as the password sign-in does: no session.
  if (user.status !== 'active') throw new SsoError('account_disabled', 'This account is disabled');
  return syncAdminRole(rt, settings, user, claims);
}

/** Links the identity to the member who asked (`link=1`); refused when it is another account's. */
async function linkIdentity(rt: Runtime, userId: string, claims: ProviderClaims): Promise<void> {
  const user = await findUserById(rt.db, userId);
  if (!user || user.status !== 'active') throw new SsoError('unauthenticated', 'Sign in before linking an account');
  const found = await findIdentity(rt.db, claims.iss, claims.sub);
  if (found) {
    if (found.user.id !== userId) throw new SsoError('identity_in_use', 'This identity is linked to another account');
    return;
  }
  const email = typeof claims.email === 'string' ? claims.email : '';
  if (!(await insertIdentity(rt.db, { userId, issuer: claims.iss, subject: claims.sub, email }))) {
    throw new SsoError('already_linked', 'This account is linked to another identity of this provider');
  }
}
