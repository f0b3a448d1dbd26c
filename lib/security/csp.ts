import type { Env } from '../env';

/** Where browsers PUT parts in direct mode: the bucket's own origin. */
function storageOrigin(env: Env): string | null {
  if (env.storage !== 's3' || !env.s3) return null;
  const { endpoint, bucket, region, forcePathStyle } = env.s3;
  if (endpoint) {
    const u = new URL(endpoint);
    return forcePathStyle ? u.origin : `${u.protocol}//${bucket}.${u.host}`;
  }
  return `https://${bucket}.s3.${region}.amazonaws.com`;
}

/** Where a share item's bytes come from in DOWNLOAD_MODE=redirect: the page's players follow it. */
export function downloadOrigin(env: Env): string | null {
  if (env.download.mode !== 'redirect') return null;
  return env.download.baseUrl ? new URL(env.download.baseUrl).origin : storageOrigin(env);
}

/** The policy of our own pages: scripts only with this request's nonce. */
export function pageCsp(nonce: string, env: Env, dev = false): string {
  const store = storageOrigin(env);
  const downloads = downloadOrigin(env);
  return [
    `default-src 'self'`,
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' data: blob:`,
    `media-src 'self' blob:${downloads ? ` ${downloads}` : ''}`,
    `font-src 'self'`,
    // The consoles' service worker (public/sw.js); 'strict-dynamic' above would refuse it.
    `worker-src 'self'`,
    `manifest-src 'self'`,
    `connect-src 'self'${store ? ` ${store}` : ''}`,
    `object-src 'none'`,
    `base-uri 'none'`,
    `form-action 'self'`,
    `frame-ancestors 'none'`,
  ].join('; ');
}

/** /p/ without a separate HOSTED_ORIGIN: pages run, but in an opaque origin. */
export const HOSTED_SANDBOX_CSP =
  'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads';
