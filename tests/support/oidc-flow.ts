import { baseUrl } from './file-server';
import { call } from './http';
import { Browser, type TestProvider } from './oidc';

export interface SsoOutcome {
  /** Where the service finally sent the browser (a page of its own). */
  landed: URL;
  /** The member session cookie it set, if any. */
  session: string | undefined;
}

/**
 * Signs in as the provider's account `accountId` the way a browser does: start → the
 * provider's authorize → its interaction (the account picked) → back to the callback → the
 * page the service sends it to. `rewrite` tampers with a URL on the way; `startHeaders` are
 * sent with the start request only (a navigation from /files carries `Sec-Fetch-Site`).
 */
export async function ssoSignIn(
  browser: Browser,
  accountId: string,
  opts: { query?: string; rewrite?: (u: URL) => URL; startHeaders?: Record<string, string> } = {},
): Promise<SsoOutcome> {
  const base = baseUrl();
  const origin = new URL(base).origin;
  const { url } = await browser.follow(`${base}/api/auth/oidc/start${opts.query ? `?${opts.query}` : ''}`, {
    rewrite: (u) => {
      if (u.pathname.startsWith('/interaction/')) u.searchParams.set('account', accountId);
      return opts.rewrite ? opts.rewrite(u) : u;
    },
    stopAt: (u) => u.origin === origin && !u.pathname.startsWith('/api/auth/oidc/'),
    headers: (u) => (u.pathname === '/api/auth/oidc/start' ? (opts.startHeaders ?? {}) : {}),
  });
  return { landed: url, session: browser.cookie(origin, 'htmls_user_session') };
}

/** GET /api/auth/me with a session cookie, as /files sends it (with the account it names). */
export async function meWithCookie(session: string, accountId: string) {
  return call('GET', '/api/auth/me', { cookie: `htmls_user_session=${session}`, headers: { 'X-Htmls-Account': accountId } });
}

export type { TestProvider };
