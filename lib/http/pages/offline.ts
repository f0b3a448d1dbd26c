import 'server-only';
import { offlinePageHtml, PASSWORD_PAGE_CSP } from '../password-page';

// GET /offline — the page the service worker keeps and shows when a navigation has no network
export function GET() {
  return new Response(offlinePageHtml(), {
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': PASSWORD_PAGE_CSP, 'Cache-Control': 'no-cache' },
  });
}
