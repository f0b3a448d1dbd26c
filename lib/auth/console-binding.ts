import 'server-only';
import type { ConsoleAccounts } from '../contract/console-account';
import type { Principal } from './principal';

/**
 * Whether a session that came in a cookie is one the calling console opened: a cookie a
 * same-site page planted (after pushing the user's own out of the jar) names another account,
 * and a request without the header is not from a console at all (a hosted page's cross-origin
 * fetch cannot add it without a CORS preflight, which the API never grants). `accounts` is what
 * the request's X-Htmls-Account header says (lib/contract/console-account.ts), or null.
 */
export function consoleVouchesFor(accounts: ConsoleAccounts | null, p: Principal): boolean {
  if (!accounts) return false;
  return p.kind === 'admin' ? accounts.admin : accounts.member === p.user.id;
}
