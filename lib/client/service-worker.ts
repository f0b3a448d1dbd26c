/**
 * Registers public/sw.js for one app (its scope is the app's path) and tells it which build
 * assets this page loaded, so the next start comes from the cache and works offline.
 */
export async function registerAppWorker(scope: '/files' | '/htmls'): Promise<void> {
  // `next dev` serves build assets under unhashed names: a cache-first worker would pin stale code.
  if (process.env.NODE_ENV !== 'production') return;
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const reg = await navigator.serviceWorker.register('/sw.js', { scope });
  const worker = reg.active ?? (await navigator.serviceWorker.ready).active;
  const urls = performance
    .getEntriesByType('resource')
    .map((e) => e.name)
    .filter((u) => new URL(u).pathname.startsWith('/_next/static/'));
  worker?.postMessage({ type: 'shell', urls });
}
