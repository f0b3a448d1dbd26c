/**
 * Which accounts signed in through the consoles of this origin, kept in this origin's own
 * storage and sent as X-Htmls-Account with every API call (lib/contract/console-account.ts):
 * the server takes the session cookie only for these, so a cookie a same-site hosted page
 * planted is refused. localStorage is per scheme, host and port and shared by /files, /htmls
 * and their tabs; where it is unavailable, the tab remembers on its own.
 */
import { formatConsoleAccounts, type ConsoleAccounts } from '../contract/console-account';

const KEY = 'htmls-console-accounts';
const NONE: ConsoleAccounts = { admin: false, member: null };
let inMemory: ConsoleAccounts = NONE;

function read(): ConsoleAccounts {
  try {
    const raw = window.localStorage.getItem(KEY);
    if (raw === null) return inMemory;
    const v = JSON.parse(raw) as Partial<ConsoleAccounts>;
    return { admin: v.admin === true, member: typeof v.member === 'string' ? v.member : null };
  } catch {
    return inMemory;
  }
}

function write(v: ConsoleAccounts): void {
  inMemory = v;
  try {
    if (!v.admin && !v.member) window.localStorage.removeItem(KEY);
    else window.localStorage.setItem(KEY, JSON.stringify(v));
  } catch {
    /* private mode or storage off: this tab keeps it in memory */
  }
}

const inBrowser = () => typeof window !== 'undefined';

/** The header's value, or undefined outside a browser or before anyone signed in here. */
export function consoleAccountHeader(): string | undefined {
  if (!inBrowser()) return undefined;
  return formatConsoleAccounts(read()) || undefined;
}

/** Whether a console of this origin opened a session of this kind (the page checks it with the server). */
export function hasConsoleSession(kind: 'admin' | 'member'): boolean {
  if (!inBrowser()) return false;
  const v = read();
  return kind === 'admin' ? v.admin : v.member !== null;
}

/** After a sign-in (login, register, a new Admin Token): the session the server just set. */
export function rememberConsoleSession(kind: 'admin' | 'member', userId: string | null): void {
  if (!inBrowser()) return;
  const v = read();
  write(kind === 'admin' ? { ...v, admin: true } : { ...v, member: userId });
}

/** After sign-out, account deletion or a refused session: logout ends both cookies, so both go. */
export function forgetConsoleSessions(): void {
  if (inBrowser()) write(NONE);
}
