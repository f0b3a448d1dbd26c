import 'server-only';
import { AppError } from '../errors';
import { ADMIN_COOKIE, parseCookies, USER_COOKIE } from '../http/cookies';
import type { Runtime } from '../runtime';
import { isAdmin, type Principal } from './principal';
import { resolveToken } from './sessions';

export type AuthNeed = 'none' | 'optional' | 'session' | 'admin' | 'member';

export interface Authenticated {
  principal: Principal | null;
  /** Cookie-authenticated requests must pass the same-origin check when they change state. */
  viaCookie: boolean;
}

const satisfies = (p: Principal, need: AuthNeed) =>
  need === 'admin' ? isAdmin(p) : need === 'member' ? p.kind === 'user' : true;

/**
 * Every route's authentication is decided here. A Bearer token is final; otherwise the
 * member cookie is tried before the admin cookie, and the first that grants the route wins
 * (a browser may hold both after using /files and /htmls).
 */
export async function authenticate(rt: Runtime, headers: Headers, need: AuthNeed): Promise<Authenticated> {
  if (need === 'none') return { principal: null, viaCookie: false };
  const authz = headers.get('authorization');
  if (authz !== null) {
    const m = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(authz);
    const principal = m ? await resolveToken(rt, m[1], true) : null;
    return check({ principal, viaCookie: false }, need);
  }
  const cookies = parseCookies(headers.get('cookie'));
  const found: Principal[] = [];
  for (const name of [USER_COOKIE, ADMIN_COOKIE]) {
    const token = cookies[name];
    if (!token) continue;
    const p = await resolveToken(rt, token, false);
    if (!p) continue;
    if (name === ADMIN_COOKIE && p.kind !== 'admin') continue;
    if (name === USER_COOKIE && p.kind !== 'user') continue;
    if (satisfies(p, need)) return { principal: p, viaCookie: true };
    found.push(p);
  }
  return check({ principal: found[0] ?? null, viaCookie: true }, need);
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
