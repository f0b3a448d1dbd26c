/**
 * The console's side of single sign-on (issue 42). The callback's redirect brings the new
 * session's account id (`?sso_account=`); the console adopts it (X-Htmls-Account,
 * lib/client/console-session.ts) only if this tab started a sign-in in the last ten minutes —
 * a link a same-site page forged to plant its own session finds no such mark.
 */
import { rememberConsoleSession } from './console-session';

const MARK = 'htmls-sso-started';
const MAX_AGE_MS = 10 * 60 * 1000;

/** Where the button goes: the start of the sign-in, after marking this tab. */
export function startSsoHref(returnTo = '/files', link = false): string {
  return `/api/auth/oidc/start?return_to=${encodeURIComponent(returnTo)}${link ? '&link=1' : ''}`;
}

export function markSsoStarted(): void {
  try {
    window.sessionStorage.setItem(MARK, String(Date.now()));
  } catch {
    /* storage off: the hand-off will not be adopted, the user signs in with a password */
  }
}

/**
 * Reads and removes the callback's parameters from the address bar: the account to adopt
 * (when this tab started the sign-in), a finished link, or an error code.
 */
export function takeSsoResult(): { account: string | null; linked: boolean; error: string | null; secondFactor: SsoSecondFactor | null } {
  const url = new URL(window.location.href);
  const step = secondFactorOf(url.hash);
  if (step) {
    // The sign-in waits for its second factor: the challenge came in the fragment.
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}`);
    return { account: null, linked: false, error: null, secondFactor: startedHere() ? step : null };
  }
  const account = url.searchParams.get('sso_account');
  const linked = url.searchParams.get('sso_linked') === '1';
  const error = url.searchParams.get('sso_error');
  if (account === null && !linked && error === null) return { account: null, linked: false, error: null, secondFactor: null };
  for (const p of ['sso_account', 'sso_linked', 'sso_error']) url.searchParams.delete(p);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  const ours = startedHere();
  if (account && ours && /^[0-9a-f-]{36}$/i.test(account)) {
    rememberConsoleSession('member', account);
    return { account, linked, error, secondFactor: null };
  }
  return { account: null, linked: linked && ours, error, secondFactor: null };
}

export interface SsoSecondFactor {
  kind: 'required' | 'enroll';
  challenge: string;
}

/** `#sso_second_factor=required&challenge=…` (lib/http/oidc/finish-sign-in.ts). */
function secondFactorOf(hash: string): SsoSecondFactor | null {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const kind = p.get('sso_second_factor');
  const challenge = p.get('challenge');
  return (kind === 'required' || kind === 'enroll') && challenge ? { kind, challenge } : null;
}

/** Whether this tab started a sign-in in the last ten minutes (and forgets that it did). */
function startedHere(): boolean {
  let started = 0;
  try {
    started = Number(window.sessionStorage.getItem(MARK) ?? 0);
    window.sessionStorage.removeItem(MARK);
  } catch {
    started = 0;
  }
  return started > 0 && Date.now() - started < MAX_AGE_MS;
}

/** The codes of `sso_error` (lib/auth/oidc/sso-error.ts) the pages word one by one; the rest read "did not work". */
const WORDED = ['not_linked', 'identity_in_use', 'already_linked', 'account_disabled', 'state_mismatch', 'provider_unavailable', 'rate_limited', 'invalid_return_to', 'unauthenticated'] as const;

/**
 * The `ssoErrors` message (messages/*.json) that says why a single sign-on did not sign anyone
 * in: /files and /cli-login show it in the reader's language.
 */
export function ssoErrorKey(code: string): (typeof WORDED)[number] | 'other' {
  return (WORDED as readonly string[]).includes(code) ? (code as (typeof WORDED)[number]) : 'other';
}
