import type { Env } from '../env';

/** The service's own origin: PUBLIC_URL, else what the request says it reached. */
export function ownOrigin(env: Env, headers: Headers, fallbackUrl: string): string {
  if (env.publicUrl) return env.publicUrl;
  const host = headers.get('host');
  const proto = env.trustProxy > 0 ? headers.get('x-forwarded-proto')?.split(',')[0].trim() : undefined;
  const base = new URL(fallbackUrl);
  return host ? `${proto === 'https' ? 'https' : base.protocol.replace(':', '')}://${host}` : base.origin;
}

/**
 * Cookie-authenticated state changes must come from our own pages: the Origin header must be
 * ours, or, without one, Sec-Fetch-Site must say same-origin.
 */
export function isSameOriginRequest(env: Env, headers: Headers, url: string): boolean {
  const origin = headers.get('origin');
  if (origin) return origin === ownOrigin(env, headers, url);
  return headers.get('sec-fetch-site') === 'same-origin';
}

export const isSecureRequest = (env: Env, headers: Headers, url: string) =>
  ownOrigin(env, headers, url).startsWith('https:');
