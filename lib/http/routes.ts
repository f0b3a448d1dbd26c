import 'server-only';
/**
 * The listener's route table: every request the listener answers itself or gates before Next,
 * declared once, in the order it is matched. The JSON operations of the contract
 * (lib/contract/operations.ts) are Next's route handlers (app/api, one-line adapters into
 * lib/http/api/) behind the same admission; the table reads their `rawBody`/`longBody` for the
 * body timeouts. server.ts does only what an entry declares:
 *
 * - `bytes`: a byte stream (an item, a ZIP, an upload body), answered before the request
 *   budget (a stream never counts); `download` takes one of its address's download slots first.
 * - `budgeted`: a small answer of page-like cost (a session lookup, a query, a render), after
 *   the per-address and per-principal budget.
 * - `page`: Next renders it, once its gate (404/410/401 with their own status) let it through.
 *
 * Everything else is Next's (pages, /api), after the budget.
 */
import { operations, type Operation } from '../contract/operations';
import { handleChunk } from './guest/chunk-handler';
import { handleShareFile, handleShareFiles } from './guest/one-request-handlers';
import { gateSharePage, serveShareItem } from './guest/serve-share-item';
import { serveShareZip } from './guest/serve-share-zip';
import { serveShareCard } from './guest/serve-share-card';
import { serveSharePlayer, serveSharePoster } from './guest/serve-share-poster';
import { gateRequestPage, serveRequestUnlock } from './guest/serve-request-page';
import type { FastReply, FastRequest } from './fast';
import { serveLocaleChoice } from './locale-choice';

type Serve = (req: FastRequest) => Promise<FastReply>;

export type GuestRoute = {
  name: string;
  /**
   * The path, segment by segment: `:id` one non-empty segment (`:id.png` one ending in `.png`),
   * `*rest` the non-empty rest, a trailing `/?` an optional final slash.
   */
  path: string;
  /** A query parameter the URL must carry (`?zip`). */
  query?: string;
} & ({ kind: 'bytes'; download?: true; longBody?: true; serve: Serve } | { kind: 'budgeted'; serve: Serve } | { kind: 'page'; gate: (req: FastRequest) => Promise<FastReply | null> });

export const guestRoutes: GuestRoute[] = [
  // A small JPEG made once (no item bytes): under the request budget, not a download slot.
  { name: 'share item poster', path: '/f/:id/*path', query: 'poster', kind: 'budgeted', serve: serveSharePoster },
  { name: 'share item', path: '/f/:id/*path', kind: 'bytes', download: true, serve: serveShareItem },
  { name: 'chunk upload', path: '/api/shares/upload/chunk', kind: 'bytes', longBody: true, serve: handleChunk },
  { name: 'one-request share (curl -T)', path: '/api/shares/file/*name?', kind: 'bytes', longBody: true, serve: handleShareFile },
  { name: 'one-request share (multipart)', path: '/api/shares/files', kind: 'bytes', longBody: true, serve: handleShareFiles },
  { name: 'share ZIP', path: '/f/:id/?', query: 'zip', kind: 'bytes', download: true, serve: serveShareZip },
  { name: "request page's unlock", path: '/r/:id/*path', kind: 'budgeted', serve: serveRequestUnlock },
  { name: 'share card image', path: '/f/:id.png', kind: 'budgeted', serve: serveShareCard },
  { name: 'share video player', path: '/f/:id.player', kind: 'budgeted', serve: serveSharePlayer },
  { name: 'request page', path: '/r/:id/?', kind: 'page', gate: gateRequestPage },
  // The language picker of the pages the server writes without scripts (password, error, offline).
  { name: 'language choice', path: '/locale', kind: 'budgeted', serve: serveLocaleChoice },
  { name: 'share page', path: '/f/:id/?', kind: 'page', gate: gateSharePage },
];

/** A path pattern as a test of a request's path (still percent-encoded, without its query). */
export function pathMatcher(pattern: string): (pathname: string) => boolean {
  const optionalSlash = pattern.endsWith('/?');
  const parts = (optionalSlash ? pattern.slice(0, -2) : pattern).split('/').slice(1);
  const last = parts.at(-1) ?? '';
  const rest = last.startsWith('*') ? (last.endsWith('?') ? 'any' : 'some') : null;
  const fixed = rest ? parts.slice(0, -1) : parts;
  return (pathname) => {
    const segs = pathname.split('/').slice(1);
    if (optionalSlash && segs.length === fixed.length + 1 && segs.at(-1) === '') segs.pop();
    if (rest ? segs.length <= fixed.length : segs.length !== fixed.length) return false;
    for (let i = 0; i < fixed.length; i++) {
      const p = fixed[i];
      const s = segs[i];
      if (!p.startsWith(':')) {
        if (s !== p) return false;
        continue;
      }
      const dot = p.indexOf('.');
      if (dot < 0 ? s === '' : !(s.endsWith(p.slice(dot)) && s.length > p.length - dot)) return false;
    }
    return rest !== 'some' || segs.slice(fixed.length).join('/') !== '';
  };
}

const matchers = guestRoutes.map((r) => ({ route: r, test: pathMatcher(r.path) }));

/** The path and the query of a request's URL, as received. */
export function splitUrl(url: string): { pathname: string; query: string } {
  const q = url.indexOf('?');
  return q < 0 ? { pathname: url, query: '' } : { pathname: url.slice(0, q), query: url.slice(q + 1) };
}

/** The guest route of a request, or null (Next's). */
export function guestRouteOf(url: string): GuestRoute | null {
  const { pathname, query } = splitUrl(url);
  for (const { route, test } of matchers) {
    if (!test(pathname)) continue;
    if (route.query && !new URLSearchParams(query).has(route.query)) continue;
    return route;
  }
  return null;
}

/** /api and everything under it: the contract's operations (JSON errors). */
export const isApiPath = (pathname: string) => pathname === '/api' || pathname.startsWith('/api/');

/**
 * The JSON operations whose bodies may take long (a site's deploy, a 500-file complete): their
 * path up to the first parameter. The byte routes declare their own `longBody`.
 */
const longJsonBodies = (Object.values(operations) as Operation[]).filter((op) => op.rawBody || op.longBody).map((op) => pathMatcher(op.path.replace(/\{[^}]+\}.*$/, '*rest?')));

/**
 * Whether a request's body may take long to arrive (a 48–64 MB part on a slow phone, a deploy,
 * a 500-file complete, a one-request share): it keeps the long server-wide limit at a minimum
 * pace; every other request must have arrived within REQUEST_TIMEOUT_SECONDS.
 */
export function takesLongBody(method: string, url: string): boolean {
  if (method === 'GET' || method === 'HEAD') return false;
  const { pathname } = splitUrl(url);
  const route = guestRouteOf(url);
  if (route) return route.kind === 'bytes' && route.longBody === true;
  return longJsonBodies.some((test) => test(pathname));
}
