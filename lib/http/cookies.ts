import 'server-only';
import { parseCookie } from 'cookie';
export const ADMIN_COOKIE = 'htmls_admin_session';
export const USER_COOKIE = 'htmls_user_session';
export const COOKIE_MAX_AGE = 7 * 24 * 3600;

/**
 * The Cookie header's cookies, the first of each name (RFC 6265 §5.4 orders a more specific
 * path first), values percent-decoded when they decode — the maintained `cookie` package's
 * parser. The object has no prototype, so a cookie named `constructor` is only a cookie.
 */
export function parseCookies(header: string | null | undefined): Record<string, string | undefined> {
  return header ? parseCookie(header) : {};
}

const raw = (value: string) => value;

/** One cookie's raw value (not percent-decoded), the first of that name as parseCookies finds it. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  return header ? parseCookie(header, { decode: raw })[name] : undefined;
}

export function serializeCookie(
  name: string,
  value: string,
  /** `httpOnly: false` only for a cookie the page's own script writes too (the language picker's). */
  opts: { maxAge: number; secure: boolean; path?: string; httpOnly?: boolean },
): string {
  const attrs = [`${name}=${encodeURIComponent(value)}`, `Path=${opts.path ?? '/'}`, `Max-Age=${opts.maxAge}`, ...(opts.httpOnly === false ? [] : ['HttpOnly']), 'SameSite=Lax'];
  if (opts.maxAge <= 0) attrs.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (opts.secure) attrs.push('Secure');
  return attrs.join('; ');
}

export const clearCookie = (name: string, secure: boolean, path = '/') => serializeCookie(name, '', { maxAge: 0, secure, path });

/**
 * How many cookies named `name` the Cookie header carries (a parser keeps one of each name, so
 * tossed duplicates are counted here).
 */
export function countCookies(header: string | null | undefined, name: string): number {
  if (!header) return 0;
  let n = 0;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i >= 0 && part.slice(0, i).trim() === name) n++;
  }
  return n;
}

/**
 * Set-Cookie values that delete both session cookies wherever a same-site page may have put
 * a copy that reaches `path`: every prefix of the path, host-only and with Domain= each parent
 * of the host (a browser ignores the ones it would not have accepted).
 */
export function tossedCookieClears(host: string | null | undefined, path: string): string[] {
  const segments = (path.split('?')[0] ?? '/').split('/').filter(Boolean).slice(0, 4);
  const paths = ['/'];
  for (let i = 1; i <= segments.length; i++) paths.push(`/${segments.slice(0, i).join('/')}`);
  const hostname = (host ?? '').replace(/:\d+$/, '').toLowerCase();
  const domains: (string | undefined)[] = [undefined];
  if (/^[a-z0-9.-]+$/.test(hostname) && !/^[\d.]+$/.test(hostname)) {
    const labels = hostname.split('.');
    for (let i = 0; i < labels.length - 1; i++) domains.push(labels.slice(i).join('.'));
  }
  const out: string[] = [];
  for (const name of [USER_COOKIE, ADMIN_COOKIE]) {
    for (const p of paths) {
      for (const d of domains) out.push(`${clearCookie(name, false, p)}${d ? `; Domain=${d}` : ''}`);
    }
  }
  return out;
}
