import 'server-only';
import { BoundedCache } from '../bounded-cache';
import type { FastReply, FastRequest } from '../http/fast';
import { processState } from '../process-state';
import { siteGeneration } from './site-cache';

/**
 * Finished replies of public hosted files, by URL and Accept-Encoding: the steady state of a
 * site costs one Map lookup and no await. Only plain GETs of unlocked sites are kept (no
 * Range, no conditional but a matching If-None-Match, no cookie to check), and an entry dies
 * with the site cache's generation, so a deploy, rollback or status change drops it.
 */
interface Entry {
  gen: number;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  etag: string;
}

const MAX_ENTRIES = 20_000;
/** Bodies are mostly the content cache's own buffers; this bounds what this map alone keeps alive. */
const MAX_BYTES = 128 * 1024 * 1024;
const state = processState('hosted-replies', () => ({ entries: new BoundedCache<string, Entry>({ maxEntries: MAX_ENTRIES, maxBytes: MAX_BYTES, sizeOf: (e) => e.body.length }) }));

type Headers = Record<string, string | string[] | undefined>;

const keyOf = (url: string, acceptEncoding: unknown, sandbox: boolean) => `${sandbox ? 's' : ''}${url}\n${typeof acceptEncoding === 'string' ? acceptEncoding : ''}`;

const plain = (h: Headers) => !h.range && !h['if-range'] && !h['if-modified-since'] && !h['if-match'] && !h['if-unmodified-since'];

/** Straight from Node's request (method, raw URL, lower-cased headers): the hot path allocates nothing else. */
export function cachedReply(method: string | undefined, url: string, h: Headers, sandbox: boolean): FastReply | null {
  if ((method !== 'GET' && method !== 'HEAD') || state.entries.size === 0) return null;
  const hit = state.entries.get(keyOf(url, h['accept-encoding'], sandbox));
  if (!hit || hit.gen !== siteGeneration() || !plain(h)) return null;
  const inm = h['if-none-match'];
  if (inm !== undefined) {
    if (inm !== hit.etag || hit.status !== 200) return null;
    return { status: 304, headers: hit.headers, body: null };
  }
  return { status: hit.status, headers: hit.headers, body: hit.body };
}

/** Keeps a reply the slow path made, when it is the same for every visitor. */
export function keepReply(req: FastRequest, sandbox: boolean, gen: number, reply: FastReply): void {
  const h: Headers = { range: req.header('range'), 'if-range': req.header('if-range'), 'if-modified-since': req.header('if-modified-since'), 'if-match': req.header('if-match'), 'if-unmodified-since': req.header('if-unmodified-since') };
  if (req.method !== 'GET' || !plain(h) || req.header('if-none-match') !== undefined) return;
  if ((reply.status !== 200 && reply.status !== 404) || !Buffer.isBuffer(reply.body)) return;
  const etag = reply.headers.ETag;
  if (typeof etag !== 'string' || 'Set-Cookie' in reply.headers) return;
  state.entries.set(keyOf(req.url, req.header('accept-encoding'), sandbox), { gen, status: reply.status, headers: reply.headers as Record<string, string>, body: reply.body, etag });
}
