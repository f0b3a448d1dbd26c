import 'server-only';
import { deployScopeSlug, isAdminScope, type OperationScope } from '../contract/scopes';
import { AppError } from '../errors';
import { isAdmin, type Principal } from './principal';

/**
 * What an access token may do now: its scopes intersected with its owner's current role (a
 * demoted owner's admin scopes count for nothing from the next request on).
 */
export function effectiveScopes(p: Principal): string[] {
  if (!p.grant) return [];
  return isAdmin(p) ? p.grant.scopes : p.grant.scopes.filter((s) => !isAdminScope(s));
}

const missing = (scope: string) =>
  new AppError('insufficient_scope', `This access token lacks the ${scope} scope`, {}, { scope });

/**
 * The scope check of a request authenticated by an access token (a session or the Admin Token
 * carries no grant and passes). `params` are the route's path parameters (`{slug}`).
 */
export function assertTokenScope(p: Principal, need: OperationScope, params: Record<string, string>): void {
  if (!p.grant || need === 'public') return;
  if (need === 'no-token') {
    throw new AppError('forbidden', 'Access tokens cannot manage tokens, passwords, the Admin Token or the account: sign in to do that');
  }
  const held = effectiveScopes(p);
  if (need === 'sites:deploy:{slug}') {
    // Without a slug in the path (POST /api/upload names it in the form), any deploy scope
    // lets the request in, and the upload checks the slug once it is read (assertDeployScope).
    const ok = params.slug === undefined ? held.some((s) => s === 'admin' || s === 'sites:deploy' || deployScopeSlug(s)) : mayDeploy(held, params.slug);
    if (!ok) throw missing(params.slug === undefined ? 'sites:deploy' : `sites:deploy:${params.slug}`);
    return;
  }
  if (!held.includes(need)) throw missing(need);
}

const mayDeploy = (held: string[], slug: string) => held.includes('admin') || held.includes('sites:deploy') || held.includes(`sites:deploy:${slug}`);

/** A deploy's project, once known: a `sites:deploy:<slug>` token deploys that project only (and never to a random slug). */
export function assertDeployScope(p: Principal, slug: string | null): void {
  if (!p.grant) return;
  const held = effectiveScopes(p);
  if (slug === null ? !(held.includes('admin') || held.includes('sites:deploy')) : !mayDeploy(held, slug)) {
    throw missing(slug === null ? 'sites:deploy' : `sites:deploy:${slug}`);
  }
}

/** A token may be made with a scope only by someone who holds it: a member never mints admin scopes. */
export function assertGrantable(p: Principal, scopes: string[]): void {
  if (isAdmin(p)) return;
  const denied = scopes.find(isAdminScope);
  if (denied) throw new AppError('forbidden', `Only administrators may give a token the ${denied} scope`);
}

/** Operations an access token may call but not for everything they take (a user's password). */
export function assertNotAccessToken(p: Principal, what: string): void {
  if (p.grant) throw new AppError('forbidden', `Access tokens cannot ${what}: sign in to do that`);
}
