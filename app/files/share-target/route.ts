// POST /files/share-target — the share sheet's target. The service worker answers it and keeps
// the files for the Upload panel; this runs only when no worker is active (first launch, or a
// browser that dropped it), so it opens the app without reading the body (it may be gigabytes).
export function POST() {
  return new Response(null, { status: 303, headers: { Location: '/files?shared=unavailable', 'Cache-Control': 'no-store' } });
}
