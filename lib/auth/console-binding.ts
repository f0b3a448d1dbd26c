import 'server-only';
import { CONSOLE_ACCOUNT_HEADER, parseConsoleAccounts, type ConsoleAccounts } from '../contract/console-account';
import { headerOf, type HeaderSource } from '../http/origin';
import type { Principal } from './principal';

const HEADER = CONSOLE_ACCOUNT_HEADER.toLowerCase();

/** The accounts a console says signed in through it (lib/contract/console-account.ts), or null. */
export const consoleAccounts = (headers: HeaderSource): ConsoleAccounts | null => parseConsoleAccounts(headerOf(headers, HEADER));

/**
 * Whether a session that came in a cookie is one the calling console opened: a cookie a
 * same-site page planted (after pushing the user's own out of the jar) names another account,
 * and a request without the header is not from a console at all (a hosted page's cross-origin
 * fetch cannot add it without a CORS preflight, which the API never grants).
 */
export function consoleVouchesFor(accounts: ConsoleAccounts | null, p: Principal): boolean {
  if (!accounts) return false;
  return p.kind === 'admin' ? accounts.admin : accounts.member === p.user.id;
}
