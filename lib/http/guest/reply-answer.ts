/**
 * Answering a hosted request from finished replies (issue 29), the same on the main thread
 * (lib/http/guest/reply-cache.ts) and in the hosted front (lib/http/hosted-front.ts): straight
 * from Node's request (method, raw URL, lower-cased headers) and synchronously, so the steady
 * state of a site is one Map lookup, the status and unlock-cookie checks, If-None-Match, and the
 * prepared headers and body written as they are. Nothing here reaches the database.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BoundedCache } from '../../bounded-cache';
import { cookieValue } from '../cookies';
import { failReply } from '../fast';

export interface ReplyLock {
  /** The unlock cookie's name. */
  cookie: string;
  /** unlockSubjectKey() of the project as the full path checked it. */
  subject: string;
}

export interface ReplyEntry {
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

/** What the holder of the replies knows now: whether a reply kept under `gen` still stands. */
export interface ReplyChecks {
  /** The site cache's generation now: an entry of another one is stale. */
  generation(): number;
  /** False past the guest caches' staleness bound (the database unreachable): nothing is answered. */
  fresh(): boolean;
  /** Whether this unlock cookie was accepted before for this subject under the current key. */
  unlocked(subject: string, value: string | undefined): boolean;
  /**
   * Called once a request is to be answered here, before a byte of the reply is written: a
   * count kept with it (the hosted front's hits) includes the answer before the client has it.
   */
  answering?(): void;
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

export const newReplies = () => new BoundedCache<string, ReplyEntry>({ maxEntries: MAX_ENTRIES, maxBytes: MAX_BYTES, sizeOf: (e) => e.body.length });

type Headers = Record<string, string | string[] | undefined>;

/** The scope of a project's own origin (per-site HOSTED_ORIGIN, or `<slug>.localhost` on the hosted port). */
export const siteScope = (site: string) => `@${site}`;

/** `scope` tells apart what the same URL is elsewhere: 's' sandboxed, siteScope() a project's own origin. */
export const replyKey = (url: string, acceptEncoding: unknown, scope: string) => `${scope}${url}\n${typeof acceptEncoding === 'string' ? acceptEncoding : ''}`;

export const plainRequest = (h: Headers) => !h.range && !h['if-range'] && !h['if-modified-since'] && !h['if-match'] && !h['if-unmodified-since'];

/** Answers `req` from `replies` when it can. False: not answered, the full path serves it. */
export function answerFrom(replies: BoundedCache<string, ReplyEntry>, checks: ReplyChecks, req: IncomingMessage, res: ServerResponse, scope: string): boolean {
  const method = req.method;
  if ((method !== 'GET' && method !== 'HEAD') || replies.size === 0) return false;
  const h = req.headers;
  const key = replyKey(req.url ?? '/', h['accept-encoding'], scope);
  const hit = replies.peek(key);
  // Not past the site cache's staleness bound either: then the slow path asks the database.
  if (!hit || hit.gen !== checks.generation() || !checks.fresh() || !plainRequest(h)) return false;
  if (hit.lock && !checks.unlocked(hit.lock.subject, cookieValue(h.cookie, hit.lock.cookie))) return false;
  const inm = h['if-none-match'];
  let status = hit.status;
  if (inm !== undefined) {
    if (inm !== hit.etag || status !== 200) return false;
    status = 304;
  }
  if (++hit.hits >= HITS_PER_TOUCH) {
    hit.hits = 0;
    replies.get(key);
  }
  checks.answering?.();
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
