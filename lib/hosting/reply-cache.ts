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
const state = processState('hosted-replies', () => ({ entries: new Map<string, Entry>(), bytes: 0 }));

const keyOf = (req: FastRequest, sandbox: boolean) => `${sandbox ? 's' : ''}${req.url}\n${req.header('accept-encoding') ?? ''}`;

const plain = (req: FastRequest) => !req.header('range') && !req.header('if-range') && !req.header('if-modified-since') && !req.header('if-match') && !req.header('if-unmodified-since');

export function cachedReply(req: FastRequest, sandbox: boolean): FastReply | null {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || state.entries.size === 0) return null;
  const hit = state.entries.get(keyOf(req, sandbox));
  if (!hit || hit.gen !== siteGeneration() || !plain(req)) return null;
  const inm = req.header('if-none-match');
  if (inm !== undefined) {
    if (inm !== hit.etag || hit.status !== 200) return null;
    return { status: 304, headers: hit.headers, body: null };
  }
  return { status: hit.status, headers: hit.headers, body: hit.body };
}

/** Keeps a reply the slow path made, when it is the same for every visitor. */
export function keepReply(req: FastRequest, sandbox: boolean, gen: number, reply: FastReply): void {
  if (req.method !== 'GET' || !plain(req) || req.header('if-none-match') !== undefined) return;
  if ((reply.status !== 200 && reply.status !== 404) || !Buffer.isBuffer(reply.body)) return;
  const etag = reply.headers.ETag;
  if (typeof etag !== 'string' || 'Set-Cookie' in reply.headers) return;
  if (state.entries.size >= MAX_ENTRIES || state.bytes + reply.body.length > MAX_BYTES) {
    state.entries.clear();
    state.bytes = 0;
  }
  const key = keyOf(req, sandbox);
  state.bytes += reply.body.length - (state.entries.get(key)?.body.length ?? 0);
  state.entries.set(key, { gen, status: reply.status, headers: reply.headers as Record<string, string>, body: reply.body, etag });
}
