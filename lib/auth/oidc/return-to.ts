import 'server-only';

export const DEFAULT_RETURN_TO = '/files';

/**
 * Where a sign-in may send the browser back to: a path on this origin (`/files#settings`), or
 * an absolute URL of this very origin, as a path. Anything else — another origin, a
 * protocol-relative `//evil` or `/\evil` (browsers read both as another host), control
 * characters — is null: never an open redirect.
 */
export function sameOriginPath(value: string | undefined, ownOrigin: string): string | null {
  if (value === undefined || value === '') return DEFAULT_RETURN_TO;
  if (value.length > 2048 || /[\u0000-\u001f\u007f\\]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, ownOrigin);
  } catch {
    return null;
  }
  if (url.origin !== ownOrigin) return null;
  if (value.startsWith('/') && value.startsWith('//')) return null;
  if (!value.startsWith('/') && !/^https?:\/\//i.test(value)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The path with `name=value` added to its query, before any fragment. */
export function withQueryParam(pathWithQuery: string, name: string, value: string): string {
  const url = new URL(pathWithQuery, 'http://x');
  url.searchParams.set(name, value);
  return `${url.pathname}${url.search}${url.hash}`;
}
