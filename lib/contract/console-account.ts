/**
 * The consoles' proof that a session cookie is theirs (issue 22, finding 3). A same-site page —
 * a hosted site on the second port or on a sibling host name — can flood the cookie jar until
 * the browser evicts the user's HttpOnly session cookie, then plant its own: a cookie alone
 * cannot show which origin set it. So the consoles keep who signed in through them in their own
 * origin's storage (localStorage is per scheme, host and port, out of a hosted page's reach) and
 * send it with every API call in this header; the server takes a session cookie only when the
 * header names its account. Bearer tokens (the SDK, the CLI, the apps) need no header.
 * Safe for the browser bundle.
 */
export const CONSOLE_ACCOUNT_HEADER = 'X-Htmls-Account';

/** What the header names: the Admin Token session, and/or one member account by id. */
export interface ConsoleAccounts {
  admin: boolean;
  member: string | null;
}

export const ADMIN_ACCOUNT = 'admin';

export function formatConsoleAccounts(a: ConsoleAccounts): string {
  return [a.member, a.admin ? ADMIN_ACCOUNT : null].filter(Boolean).join(' ');
}

/** At most two names; anything longer is not a console's header. */
export function parseConsoleAccounts(value: string | undefined): ConsoleAccounts | null {
  if (!value || value.length > 100) return null;
  const names = value.trim().split(/[\s,]+/).filter(Boolean).slice(0, 2);
  if (names.length === 0) return null;
  return { admin: names.includes(ADMIN_ACCOUNT), member: names.find((n) => n !== ADMIN_ACCOUNT) ?? null };
}
