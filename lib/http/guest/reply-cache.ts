import 'server-only';
import { verifiedUnlock } from '../../auth/unlock-cookie';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastReply, FastRequest } from '../fast';
import { isPooled } from '../../storage/chunk-pool';
import { frontAttached, sendKeep } from '../../front-link';
import { answerFrom, newReplies, plainRequest, replyKey, type ReplyChecks, type ReplyLock } from './reply-answer';
import { siteGeneration, sitesFresh } from '../../hosting/site-cache';
import { perRuntime, type Runtime } from '../../runtime';

/**
 * Finished replies of hosted files, by URL and Accept-Encoding: the steady state of a site
 * costs one Map lookup and no await (answerCached). Only plain GETs are kept (no Range, no conditional but a
 * matching If-None-Match), and an entry dies with the site cache's generation, so a deploy,
 * rollback, status or password change drops it. A locked project's reply is given only with
 * an unlock cookie the full path already accepted under the current key (verifiedUnlock);
 * anything else goes the full way, to the password page.
 *
 * With a hosted front (lib/http/hosted-front.ts: the hosted port's listener, in a thread of
 * its own) the replies of the hosted port are kept there, not here.
 */
export type { ReplyLock };

/** Each service's replies, and what they are checked against (its own site cache). */
const stateOf = perRuntime((rt) => {
  const checks: ReplyChecks = { generation: () => siteGeneration(rt), fresh: () => sitesFresh(rt), unlocked: (subject, value) => verifiedUnlock(rt, subject, value) };
  return { entries: newReplies(), checks };
});

/**
 * Answers a request from the cache when it can, synchronously (lib/http/guest/reply-answer.ts).
 * False: not answered, the full path serves it.
 */
export const answerCached = (rt: Runtime, req: IncomingMessage, res: ServerResponse, scope: string): boolean => {
  const state = stateOf(rt);
  return answerFrom(state.entries, state.checks, req, res, scope);
};

/** Keeps a reply the slow path made, when it is the same for every visitor (every unlocked one, with `lock`). */
export function keepReply(req: FastRequest, scope: string, gen: number, reply: FastReply, lock: ReplyLock | null): void {
  const h = { range: req.header('range'), 'if-range': req.header('if-range'), 'if-modified-since': req.header('if-modified-since'), 'if-match': req.header('if-match'), 'if-unmodified-since': req.header('if-unmodified-since') };
  if (req.method !== 'GET' || !plainRequest(h) || req.header('if-none-match') !== undefined) return;
  // A pooled chunk goes back to the store's pool once sent: never one to keep.
  if ((reply.status !== 200 && reply.status !== 404) || !Buffer.isBuffer(reply.body) || isPooled(reply.body)) return;
  const etag = reply.headers.ETag;
  if (typeof etag !== 'string' || 'Set-Cookie' in reply.headers) return;
  const raw: (string | string[])[] = [];
  for (const [name, value] of Object.entries(reply.headers)) raw.push(name, value);
  const key = replyKey(req.url, req.header('accept-encoding'), scope);
  // The hosted port's replies (what the front forwarded) are the front's to answer.
  if (req.handoff && frontAttached()) sendKeep({ key, gen, status: reply.status, raw, etag, lock }, reply.body);
  else stateOf(req.rt).entries.set(key, { gen, status: reply.status, raw, body: reply.body, etag, lock, hits: 0 });
}
