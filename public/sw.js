// The service worker of the installable apps, registered once per app with scope /files or
// /htmls. It keeps the app shell only — Next's content-hashed build assets, the icons and the
// offline page — so the app opens fast and says "offline" when the network is gone. API
// answers, pages (they carry the signed-in user) and shared files are never cached or even
// touched: those requests go to the network exactly as without a worker, uploads included.
const SCOPE = new URL(self.registration.scope).pathname.replace(/\/$/, '');
const SHELL = `htmls-shell${SCOPE.replaceAll('/', '-')}`;
// Files handed over by the share sheet, until the Upload panel takes them (lib/client/share-target.ts).
const SHARED = 'htmls-share-target';
const OFFLINE = '/offline';
const PRECACHE = [OFFLINE, '/favicon.ico', '/icons/icon.svg', '/icons/icon-192.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.method === 'POST' && url.pathname === `${SCOPE}/share-target`) {
    event.respondWith(receiveShare(event));
    return;
  }
  if (req.method !== 'GET') return;
  if (req.mode === 'navigate') event.respondWith(fetch(req).catch(offline));
  else if (url.pathname.startsWith('/_next/static/')) event.respondWith(cacheFirst(req));
  else if (PRECACHE.includes(url.pathname) || url.pathname.startsWith('/icons/')) event.respondWith(refreshing(req, event));
});

// The page lists the build assets it loaded (lib/client/service-worker.ts): keep those, drop
// the ones an older build left behind.
self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'shell' && Array.isArray(event.data.urls)) event.waitUntil(keepShell(event.data.urls));
});

async function offline() {
  const page = await caches.match(OFFLINE, { cacheName: SHELL });
  return page || new Response('You are offline.', { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

async function cacheFirst(req) {
  const cache = await caches.open(SHELL);
  const hit = await cache.match(req);
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok) await cache.put(req, res.clone());
  return res;
}

/** Stale-while-revalidate: the icons and the offline page change only with a new build. */
async function refreshing(req, event) {
  const cache = await caches.open(SHELL);
  const hit = await cache.match(req);
  const update = fetch(req).then(async (res) => {
    if (res.ok) await cache.put(req, res.clone());
    return res;
  });
  if (hit) {
    event.waitUntil(update.catch(() => {}));
    return hit;
  }
  return update;
}

async function keepShell(urls) {
  const keep = new Set(
    urls.map((u) => new URL(u, self.location.origin)).filter((u) => u.origin === self.location.origin && u.pathname.startsWith('/_next/static/')).map((u) => u.href),
  );
  const cache = await caches.open(SHELL);
  for (const req of await cache.keys()) {
    if (new URL(req.url).pathname.startsWith('/_next/static/') && !keep.has(req.url)) await cache.delete(req);
  }
  for (const url of keep) {
    if (await cache.match(url)) continue;
    const res = await fetch(url).catch(() => null);
    if (res && res.ok) await cache.put(url, res);
  }
}

/** Keeps what the share sheet sent (replacing an earlier share nobody picked up) and opens the app. */
async function receiveShare(event) {
  // Another site's form post must not fill the panel. It can drop its Referer
  // (<meta name=referrer content=no-referrer>), so that absence proves nothing. What it cannot
  // shed: a page starts its navigation (the fetch event names that page as its client) and
  // sends an Origin ("null" at worst). So: our own origin, or a navigation no page started —
  // the share sheet, which the browser itself opens.
  const req = event.request;
  const origin = req.headers.get('Origin');
  const ours = origin === self.location.origin;
  const fromTheBrowser = !event.clientId && (origin === null || origin === 'null');
  if (!ours && !fromTheBrowser) return Response.redirect(SCOPE, 303);
  const form = await req.formData();
  const cache = await caches.open(SHARED);
  for (const old of await cache.keys()) await cache.delete(old);
  const files = form.getAll('files').filter((f) => typeof f !== 'string');
  let i = 0;
  for (const file of files) {
    const headers = {
      'Content-Type': file.type || 'application/octet-stream',
      'X-File-Name': encodeURIComponent(file.name || `shared-${i + 1}`),
      'X-Last-Modified': String(file.lastModified || Date.now()),
    };
    await cache.put(`/share-target/file/${i++}`, new Response(file, { headers }));
  }
  const text = ['title', 'text', 'url'].map((k) => form.get(k)).filter((v) => typeof v === 'string' && v.trim()).join('\n');
  if (text) await cache.put('/share-target/note', new Response(text));
  return Response.redirect(`${SCOPE}?shared=${files.length}`, 303);
}
