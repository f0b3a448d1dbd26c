import 'server-only';
import { AppError } from '../errors';
import { ADMIN_COOKIE, countCookies, parseCookies, tossedCookieClears, USER_COOKIE } from './cookies';
import { headerOf, type HeaderSource } from './origin';
import type { Runtime } from '../runtime';
import { isAdmin, type Principal } from '../auth/principal';
import { isAdminToken } from '../auth/admin-credential';
import { consoleVouchesFor } from '../auth/console-binding';
import { CONSOLE_ACCOUNT_HEADER, parseConsoleAccounts } from '../contract/console-account';
import { assertUnderRateLimit, enforceRateLimit } from '../auth/rate-limit';
import { isStaleSession, resolveToken } from '../auth/sessions';
import { isAccessTokenSecret, resolveAccessToken } from '../auth/access-tokens';
import { assertTokenScope } from '../auth/scopes';
import type { OperationScope } from '../contract/scopes';
import { UPLOAD_TOKEN_PREFIX } from '../contract/requests';

/** What an operation asks of its caller (lib/contract/endpoints.ts). */
export type { Auth as AuthNeed } from '../contract/endpoints';
import type { Auth as AuthNeed } from '../contract/endpoints';

export interface Authenticated {
  principal: Principal | null;
  /** Cookie-authenticated requests must pass the same-origin check when they change state. */
  viaCookie: boolean;
}

const satisfies = (p: Principal, need: AuthNeed) =>
  need === 'admin' ? isAdmin(p) : need === 'member' ? p.kind === 'user' : true;

/** The token of an `Authorization: Bearer <token>` header, if the header is one. */
export function bearerToken(headers: HeaderSource): string | undefined {
  return bearerOf(headerOf(headers, 'authorization'));
}

/** The token of an Authorization header's value, if it is `Bearer <token>`. */
export function bearerOf(authorization: string | undefined): string | undefined {
  return /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(authorization ?? '')?.[1];
}

/** What the operation asks of an access token, and the route's path parameters (`{slug}`). */
export interface TokenNeed {
  scope: OperationScope;
  params: Record<string, string>;
}

/** Routes where scripts may send the raw Admin Token as Bearer (deploys, uploads, /api/auth/me). */
const ADMIN_TOKEN_AS_BEARER: ReadonlySet<AuthNeed> = new Set(['admin', 'session']);

/**
 * Every route's authentication is decided here. A Bearer token is final (an access token is
 * then held to the operation's scope: `tokenNeed`); otherwise the
 * member cookie is tried before the admin cookie, and the first that grants the route wins
 * (a browser may hold both after using /files and /htmls). `ip` is the client address: a
 * Bearer that is not a live session counts as a failed login from it (guessing the Admin
 * Token through Bearer is as slow as through the login form).
 */
export async function authenticate(
  rt: Runtime,
  headers: HeaderSource,
  need: AuthNeed,
  client: { ip: string; url?: string },
  tokenNeed: TokenNeed = { scope: 'no-token', params: {} },
  /** How a session token becomes its principal (the chunk route's is cached: lib/auth/session-cache.ts). */
  resolveSession: (rt: Runtime, token: string) => Promise<Principal | null> = resolveToken,
): Promise<Authenticated> {
  const ip = client.ip;
  if (need === 'none') return { principal: null, viaCookie: false };
  if (headerOf(headers, 'authorization') !== undefined) {
    const token = bearerToken(headers);
    const principal = token ? await resolveBearer(rt, token, need, ip, resolveSession) : null;
    const admitted = check({ principal, viaCookie: false }, need);
    // An access token (htmls_pat_…) may do only what its scopes, cut to its owner's role, allow.
    if (admitted.principal) assertTokenScope(admitted.principal, tokenNeed.scope, tokenNeed.params);
    return admitted;
  }
  const header = headerOf(headers, 'cookie');
  // Two session cookies of one name (one tossed in by a same-site page with a longer Path or
  // a Domain attribute): nobody can tell which is the user's, so neither counts.
  if (countCookies(header, USER_COOKIE) > 1 || countCookies(header, ADMIN_COOKIE) > 1) {
    if (need === 'optional') return { principal: null, viaCookie: true };
    // Clear every copy this response can reach: each prefix of the path, host-only and on the
    // parent domains (the tossed one may have been set with Domain=).
    const path = client.url ? new URL(client.url).pathname : '/';
    throw new AppError('unauthenticated', 'Two session cookies were sent; sign in again', {
      'Set-Cookie': tossedCookieClears(headerOf(headers, 'host'), path),
    });
  }
  const cookies = parseCookies(header);
  const accounts = parseConsoleAccounts(headerOf(headers, CONSOLE_ACCOUNT_HEADER.toLowerCase()));
  const found: Principal[] = [];
  let foreign = false;
  for (const name of [USER_COOKIE, ADMIN_COOKIE]) {
    const token = cookies[name];
    if (!token) continue;
    const p = await resolveSession(rt, token);
    if (!p) continue;
    if (name === ADMIN_COOKIE && p.kind !== 'admin') continue;
    if (name === USER_COOKIE && p.kind !== 'user') continue;
    // A cookie counts only for the console that opened its session (lib/auth/console-binding.ts).
    if (!consoleVouchesFor(accounts, p)) {
      foreign ||= accounts !== null;
      continue;
    }
    if (satisfies(p, need)) return { principal: p, viaCookie: true };
    found.push(p);
  }
  if (foreign && found.length === 0 && need !== 'optional') {
    // Another account's session in this console's jar: planted. Clear it wherever it may sit.
    throw new AppError('unauthenticated', 'This browser holds a session this console did not open; sign in again', {
      'Set-Cookie': tossedCookieClears(headerOf(headers, 'host'), client.url ? new URL(client.url).pathname : '/'),
    });
  }
  return check({ principal: found[0] ?? null, viaCookie: true }, need);
}

/**
 * A live session; else, on routes that take it, the Admin Token, tried only while the
 * address is under the login limit. Every miss counts against that limit, except a session
 * token this server issued (issue 22, item 12).
 */
async function resolveBearer(
  rt: Runtime,
  token: string,
  need: AuthNeed,
  ip: string,
  resolveSession: (rt: Runtime, token: string) => Promise<Principal | null>,
): Promise<Principal | null> {
  // A guest's upload token is no login anywhere: it reaches only its own upload's protocol
  // calls, which take it before authentication (lib/http/route.ts). Not a guess at a password either.
  if (token.startsWith(UPLOAD_TOKEN_PREFIX)) return null;
  if (isAccessTokenSecret(token)) {
    const granted = await resolveAccessToken(rt, token, ip);
    if (granted) return granted;
    await enforceRateLimit(rt, 'login', ip);
    return null;
  }
  const session = await resolveSession(rt, token);
  if (session) return session;
  // A session this server issued that has expired (an app still polling with it) is no guess
  // at the Admin Token: refused without counting, or 10 polls would lock its address out.
  if (await isStaleSession(rt, token)) return null;
  await assertUnderRateLimit(rt, 'login', ip);
  if (ADMIN_TOKEN_AS_BEARER.has(need) && token.length <= 512 && (await isAdminToken(rt, token))) {
    return { kind: 'admin', user: null, via: 'token' };
  }
  // One failed attempt counted; 429 when it was one too many.
  await enforceRateLimit(rt, 'login', ip);
  return null;
}

function check(a: Authenticated, need: AuthNeed): Authenticated {
  if (need === 'optional') return a;
  if (!a.principal) throw new AppError('unauthenticated', 'Sign in to continue');
  if (!satisfies(a.principal, need)) {
    throw new AppError(
      'forbidden',
      need === 'admin' ? 'This needs the administrator' : 'This is for member accounts, not the Admin Token',
    );
  }
  return a;
}

/**
 * The member whose session cookie came with a browser navigation from this origin's own pages:
 * only for `GET /api/auth/oidc/start?link=1`, a navigation, which cannot carry the consoles'
 * X-Htmls-Account header. `Sec-Fetch-Site: same-origin` stands in for it — a hosted page (another
 * port or host) navigates as same-site or cross-site, so a session it planted links nothing.
 */
export async function navigatingMember(rt: Runtime, headers: HeaderSource): Promise<Principal & { kind: 'user' } | null> {
  if (headerOf(headers, 'sec-fetch-site') !== 'same-origin') return null;
  const header = headerOf(headers, 'cookie');
  if (countCookies(header, USER_COOKIE) !== 1) return null;
  const token = parseCookies(header)[USER_COOKIE];
  const p = token ? await resolveToken(rt, token) : null;
  return p?.kind === 'user' ? p : null;
}
