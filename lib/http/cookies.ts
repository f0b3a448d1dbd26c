export const ADMIN_COOKIE = 'htmls_admin_session';
export const USER_COOKIE = 'htmls_user_session';
export const COOKIE_MAX_AGE = 7 * 24 * 3600;

export function parseCookies(header: string | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const name = part.slice(0, i).trim();
    if (!name || name in out) continue;
    const raw = part.slice(i + 1).trim();
    try {
      out[name] = decodeURIComponent(raw);
    } catch {
      out[name] = raw;
    }
  }
  return out;
}

export function serializeCookie(
  name: string,
  value: string,
  opts: { maxAge: number; secure: boolean; path?: string },
): string {
  const attrs = [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${opts.path ?? '/'}`,
    `Max-Age=${opts.maxAge}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (opts.maxAge <= 0) attrs.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (opts.secure) attrs.push('Secure');
  return attrs.join('; ');
}

export const clearCookie = (name: string, secure: boolean, path = '/') => serializeCookie(name, '', { maxAge: 0, secure, path });
