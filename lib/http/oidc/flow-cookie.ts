import 'server-only';
import { clearCookie, cookieValue, countCookies, serializeCookie } from '../cookies';
import { getServerSecret, type Runtime } from '../../runtime';
import { hmac, safeEqual } from '../../auth/crypto';

/** The sign-in under way: state, nonce and PKCE verifier, whom to link, where to return. */
export interface OidcFlow {
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
  /** The signed-in member who asked to link (`link=1`); null for a sign-in. */
  linkUserId: string | null;
  expiresAt: number;
}

export const FLOW_COOKIE = 'htmls_oidc';
/** Only the callback needs it back. */
const FLOW_PATH = '/api/auth/oidc';
/** Ten minutes to sign in at the provider. */
export const FLOW_MAX_AGE = 600;

const signingKey = async (rt: Runtime) => `oidc-flow\n${await getServerSecret(rt)}`;

/**
 * Signed, so a link target or a return path cannot be edited on the way; the state inside is
 * compared with the provider's answer, so a callback from a flow this browser did not start is
 * refused (login CSRF).
 */
export async function flowCookie(rt: Runtime, flow: OidcFlow, secure: boolean): Promise<string> {
  const payload = Buffer.from(JSON.stringify(flow)).toString('base64url');
  const value = `${payload}.${hmac(await signingKey(rt), payload)}`;
  return serializeCookie(FLOW_COOKIE, value, { maxAge: FLOW_MAX_AGE, secure, path: FLOW_PATH });
}

export const clearFlowCookie = (secure: boolean) => clearCookie(FLOW_COOKIE, secure, FLOW_PATH);

/** The flow this browser started, when its cookie is one, signed here, unexpired; else null. */
export async function readFlow(rt: Runtime, cookieHeader: string | undefined, nowMs = Date.now()): Promise<OidcFlow | null> {
  // Two of them (one tossed in by a same-site page): neither is trusted.
  if (countCookies(cookieHeader, FLOW_COOKIE) !== 1) return null;
  const raw = cookieValue(cookieHeader, FLOW_COOKIE);
  if (!raw || raw.length > 4096) return null;
  const [payload, mac, extra] = decodeURIComponent(raw).split('.');
  if (!payload || !mac || extra !== undefined || !safeEqual(mac, hmac(await signingKey(rt), payload))) return null;
  let flow: OidcFlow;
  try {
    flow = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as OidcFlow;
  } catch {
    return null;
  }
  if (typeof flow.expiresAt !== 'number' || flow.expiresAt <= nowMs) return null;
  return flow;
}
