import 'server-only';
import { verifiedUnlock } from '../auth/unlock-cookie';
import { cookieValue } from '../http/cookies';
import { BoundedCache } from '../bounded-cache';
import type { FastReply, FastRequest } from '../http/fast';
import { processState } from '../process-state';
import { siteGeneration, sitesFresh } from './site-cache';

/**
 * Finished replies of hosted files, by URL and Accept-Encoding: the steady state of a site
 * costs one Map lookup and no await. Only plain GETs are kept (no Range, no conditional but a
 * matching If-None-Match), and an entry dies with the site cache's generation, so a deploy,
 * rollback, status or password change drops it. A locked project's reply is given only with
 * an unlock cookie the full path already accepted under the current key (verifiedUnlock);
 * anything else goes the full way, to the password page.
 */
export interface ReplyLock {
  /** The unlock cookie's name. */
  cookie: string;
  /** unlockSubjectKey() of the project as the full path checked it. */
  subject: string;
}

interface Entry {
  gen: number;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  etag: string;
  lock: ReplyLock | null;
}

const MAX_ENTRIES = 20_000;
/** Bodies are mostly the content cache's own buffers; this bounds what this map alone keeps alive. */
const MAX_BYTES = 128 * 1024 * 1024;
const state = processState('hosted-replies', () => ({ entries: new BoundedCache<string, Entry>({ maxEntries: MAX_ENTRIES, maxBytes: MAX_BYTES, sizeOf: (e) => e.body.length }) }));

type Headers = Record<string, string | string[] | undefined>;

/** `scope` tells apart what the same URL is elsewhere: 's' sandboxed, `@<slug>` a per-site origin. */
const keyOf = (url: string, acceptEncoding: unknown, scope: string) => `${scope}${url}\n${typeof acceptEncoding === 'string' ? acceptEncoding : ''}`;

const plain = (h: Headers) => !h.range && !h['if-range'] && !h['if-modified-since'] && !h['if-match'] && !h['if-unmodified-since'];

/** Straight from Node's request (method, raw URL, lower-cased headers): the hot path allocates nothing else. */
export function cachedReply(method: string | undefined, url: string, h: Headers, scope: string): FastReply | null {
  if ((method !== 'GET' && method !== 'HEAD') || state.entries.size === 0) return null;
  const hit = state.entries.get(keyOf(url, h['accept-encoding'], scope));
  // Not past the site cache's staleness bound either: then the slow path asks the database.
  if (!hit || hit.gen !== siteGeneration() || !sitesFresh() || !plain(h)) return null;
  if (hit.lock && !verifiedUnlock(hit.lock.subject, cookieValue(h.cookie as string | undefined, hit.lock.cookie))) return null;
  const inm = h['if-none-match'];
  if (inm !== undefined) {
    if (inm !== hit.etag || hit.status !== 200) return null;
    return { status: 304, headers: hit.headers, body: null };
  }
  return { status: hit.status, headers: hit.headers, body: hit.body };
}

/** Keeps a reply the slow path made, when it is the same for every visitor (every unlocked one, with `lock`). */
export function keepReply(req: FastRequest, scope: string, gen: number, reply: FastReply, lock: ReplyLock | null): void {
  const h: Headers = { range: req.header('range'), 'if-range': req.header('if-range'), 'if-modified-since': req.header('if-modified-since'), 'if-match': req.header('if-match'), 'if-unmodified-since': req.header('if-unmodified-since') };
  if (req.method !== 'GET' || !plain(h) || req.header('if-none-match') !== undefined) return;
  if ((reply.status !== 200 && reply.status !== 404) || !Buffer.isBuffer(reply.body)) return;
  const etag = reply.headers.ETag;
  if (typeof etag !== 'string' || 'Set-Cookie' in reply.headers) return;
  state.entries.set(keyOf(req.url, req.header('accept-encoding'), scope), { gen, status: reply.status, headers: reply.headers as Record<string, string>, body: reply.body, etag, lock });
}
