import 'server-only';
import { sameOriginPath } from '../../same-origin-path';

export const DEFAULT_RETURN_TO = '/files';

/**
 * Where a sign-in may send the browser back to: a path of this origin (`/files#settings`), or an
 * absolute URL of this very origin, as its path; then the one rule of lib/same-origin-path.ts.
 * Anything else — another origin, a protocol-relative `//evil` or `/\evil`, control
 * characters — is null: never an open redirect.
 */
export function returnToPath(value: string | undefined, ownOrigin: string): string | null {
  if (value === undefined || value === '') return DEFAULT_RETURN_TO;
  const own = ownOrigin.toLowerCase();
  const lower = value.toLowerCase();
  if (lower === own) return '/';
  return sameOriginPath(lower.startsWith(`${own}/`) ? value.slice(own.length) : value);
}

/** The path with `name=value` added to its query, before any fragment. */
export function withQueryParam(pathWithQuery: string, name: string, value: string): string {
  const url = new URL(pathWithQuery, 'http://x');
  url.searchParams.set(name, value);
  return `${url.pathname}${url.search}${url.hash}`;
}
