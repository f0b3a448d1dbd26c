import 'server-only';
import { resolveTokenCached } from '../auth/session-cache';
import { countCookies, parseCookies, USER_COOKIE } from './cookies';
import { localeOf } from './locale-of';
import { getRuntime } from '../runtime';

type Header = (name: string) => string | undefined;

/**
 * The language setting of the member whose session cookie came with a page request, or null.
 * Unlike the API, this takes the cookie without the console's X-Htmls-Account: a session planted
 * by a same-site page can change only the language a page is written in, which that page could
 * do as well by planting the picker's cookie — and a page needs it before any script runs. Two
 * session cookies (one tossed in) count as none, as in lib/http/guards.ts. The lookup is the
 * epoch-cached one: a change of profile bumps the sessions epoch, so the next page sees it.
 */
export async function memberLocaleOf(header: Header): Promise<string | null> {
  const cookie = header('cookie');
  if (countCookies(cookie, USER_COOKIE) !== 1) return null;
  const token = parseCookies(cookie)[USER_COOKIE];
  if (!token) return null;
  try {
    const p = await resolveTokenCached(await getRuntime(), token);
    return p?.kind === 'user' ? p.user.locale : null;
  } catch {
    // The database unreachable: the page still renders, in the cookie's or the browser's language.
    return null;
  }
}

/** A page request's language: the signed-in member's setting, else cookie, Accept-Language, DEFAULT_LOCALE. */
export async function requestLocaleOf(header: Header) {
  return localeOf(header, await memberLocaleOf(header));
}
