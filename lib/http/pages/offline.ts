import 'server-only';
import { localeOf } from '../locale-of';
import { offlinePageHtml, PASSWORD_PAGE_CSP } from '../password-page';

// GET /offline — the page the service worker keeps and shows when a navigation has no network,
// in the visitor's language (the worker refreshes its copy, so a new choice reaches it).
export function GET(req: Request) {
  return new Response(offlinePageHtml(localeOf((name) => req.headers.get(name) ?? undefined)), {
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': PASSWORD_PAGE_CSP, 'Cache-Control': 'no-cache', Vary: 'Accept-Language, Cookie' },
  });
}
