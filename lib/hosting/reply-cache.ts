import 'server-only';
import { verifiedUnlock } from '../auth/unlock-cookie';
import { cookieValue } from '../http/cookies';
import { BoundedCache } from '../bounded-cache';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { failReply, type FastReply, type FastRequest } from '../http/fast';
import { isPooled } from '../storage/chunk-pool';
import { processState } from '../process-state';
import { siteGeneration, sitesFresh } from './site-cache';

/**
 * Finished replies of hosted files, by URL and Accept-Encoding: the steady state of a site
 * costs one Map lookup and no await (answerCached). Only plain GETs are kept (no Range, no conditional but a
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
  /** The reply's headers as a flat [name, value, …] list, for res.writeHead as they are. */
  raw: (string | string[])[];
  body: Buffer;
  etag: string;
  lock: ReplyLock | null;
  /** Hits since the entry last became the newest of the cache (see HITS_PER_TOUCH). */
  hits: number;
}

const MAX_ENTRIES = 20_000;
/** Bodies are mostly the content cache's own buffers; this bounds what this map alone keeps alive. */
const MAX_BYTES = 128 * 1024 * 1024;
/**
 * A hit makes its entry the newest only every this many hits: moving it on every one (a Map
 * delete and set) cost more than the rest of the lookup, and an entry this busy is never the
 * one eviction would pick anyway.
 */
const HITS_PER_TOUCH = 64;
const state = processState('hosted-replies', () => ({ entries: new BoundedCache<string, Entry>({ maxEntries: MAX_ENTRIES, maxBytes: MAX_BYTES, sizeOf: (e) => e.body.length }) }));

type Headers = Record<string, string | string[] | undefined>;

/** `scope` tells apart what the same URL is elsewhere: 's' sandboxed, `@<slug>` a per-site origin. */
const keyOf = (url: string, acceptEncoding: unknown, scope: string) => `${scope}${url}\n${typeof acceptEncoding === 'string' ? acceptEncoding : ''}`;

const plain = (h: Headers) => !h.range && !h['if-range'] && !h['if-modified-since'] && !h['if-match'] && !h['if-unmodified-since'];

/**
 * Answers a request from the cache when it can, straight from Node's request (method, raw URL,
 * lower-cased headers) and synchronously: the steady state of a site is one Map lookup, the
 * status and unlock-cookie checks, If-None-Match, and the prepared headers and body written as
 * they are. False: not answered, the full path serves it.
 */
export function answerCached(req: IncomingMessage, res: ServerResponse, scope: string): boolean {
  const method = req.method;
  if ((method !== 'GET' && method !== 'HEAD') || state.entries.size === 0) return false;
  const h = req.headers;
  const key = keyOf(req.url ?? '/', h['accept-encoding'], scope);
  const hit = state.entries.peek(key);
  // Not past the site cache's staleness bound either: then the slow path asks the database.
  if (!hit || hit.gen !== siteGeneration() || !sitesFresh() || !plain(h)) return false;
  if (hit.lock && !verifiedUnlock(hit.lock.subject, cookieValue(h.cookie, hit.lock.cookie))) return false;
  const inm = h['if-none-match'];
  let status = hit.status;
  if (inm !== undefined) {
    if (inm !== hit.etag || status !== 200) return false;
    status = 304;
  }
  if (++hit.hits >= HITS_PER_TOUCH) {
    hit.hits = 0;
    state.entries.get(key);
  }
  try {
    res.writeHead(status, hit.raw);
  } catch (e) {
    failReply(res, e);
    return true;
  }
  if (status === 304 || method === 'HEAD') res.end();
  else res.end(hit.body);
  return true;
}

/** Keeps a reply the slow path made, when it is the same for every visitor (every unlocked one, with `lock`). */
export function keepReply(req: FastRequest, scope: string, gen: number, reply: FastReply, lock: ReplyLock | null): void {
  const h: Headers = { range: req.header('range'), 'if-range': req.header('if-range'), 'if-modified-since': req.header('if-modified-since'), 'if-match': req.header('if-match'), 'if-unmodified-since': req.header('if-unmodified-since') };
  if (req.method !== 'GET' || !plain(h) || req.header('if-none-match') !== undefined) return;
  // A pooled chunk goes back to the store's pool once sent: never one to keep.
  if ((reply.status !== 200 && reply.status !== 404) || !Buffer.isBuffer(reply.body) || isPooled(reply.body)) return;
  const etag = reply.headers.ETag;
  if (typeof etag !== 'string' || 'Set-Cookie' in reply.headers) return;
  const raw: (string | string[])[] = [];
  for (const [name, value] of Object.entries(reply.headers)) raw.push(name, value);
  state.entries.set(keyOf(req.url, req.header('accept-encoding'), scope), { gen, status: reply.status, raw, body: reply.body, etag, lock, hits: 0 });
}
