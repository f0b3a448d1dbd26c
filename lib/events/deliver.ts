import 'server-only';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { resolveDestination, type Lookup } from './ssrf';
import { signWebhook } from './sign';

/** API.md: an attempt that has no answer within 10 s has failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/**
 * The timeout for a receiver whose last attempts all timed out (lib/events/worker.ts): a
 * tarpit holds one of its owner's few slots for 2 s, not 10.
 */
export const SHORT_TIMEOUT_MS = 2_000;
/** Bytes of a receiver's answer read before the connection is dropped. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** Bytes of the answer kept for the delivery log. */
export const KEPT_RESPONSE_BYTES = 1024;

export interface Attempt {
  url: string;
  secret: string;
  id: string;
  body: string;
  allowPrivate: boolean;
  lookup?: Lookup;
  /** DELIVERY_TIMEOUT_MS unless given. */
  timeoutMs?: number;
  /** Aborted when the service stops: the attempt ends at once, unanswered. */
  signal?: AbortSignal;
}

/** `body`: the answer's first KiB as text; `timedOut`: no answer in time (not refused, not an error status). */
export type AttemptResult = { ok: boolean; status: number | null; error: string | null; body: string | null; timedOut: boolean };

/**
 * One signed POST (Standard Webhooks headers). The destination is resolved and checked now
 * (lib/events/ssrf.ts) and the socket connects to exactly the address checked: the request's
 * `lookup` answers with it, so a second resolution cannot point it elsewhere. No redirect is
 * followed; the answer's body is read up to 64 KiB, and its first KiB kept for the log.
 */
export async function attemptDelivery(a: Attempt): Promise<AttemptResult> {
  let dest: { address: string; family: 4 | 6 };
  const url = new URL(a.url);
  try {
    dest = await resolveDestination(url, a.allowPrivate, a.lookup);
  } catch (e) {
    return { ok: false, status: null, error: (e as Error).message, body: null, timedOut: false };
  }
  const timeoutMs = a.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const timestamp = Math.floor(Date.now() / 1000);
  const pinned = ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (opts?.all) cb(null, [{ address: dest.address, family: dest.family }]);
    else cb(null, dest.address, dest.family);
  }) as unknown as LookupFunction;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const done = (r: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      a.signal?.removeEventListener('abort', stopped);
      resolve(r);
    };
    const stopped = () => {
      req.destroy();
      done({ ok: false, status: null, error: 'stopped with the service', body: null, timedOut: false });
    };
    const req = client.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        agent: false,
        lookup: pinned,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(a.body),
          'User-Agent': 'htmls-webhooks',
          'webhook-id': a.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(a.secret, a.id, timestamp, a.body),
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let seen = 0;
        const kept: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          if (seen < KEPT_RESPONSE_BYTES) kept.push(chunk.subarray(0, KEPT_RESPONSE_BYTES - seen));
          seen += chunk.length;
          if (seen > MAX_RESPONSE_BYTES) res.destroy();
        });
        const finish = () => {
          req.destroy();
          const ok = status >= 200 && status < 300;
          // A cut multi-byte character at the end becomes U+FFFD; NULs cannot be stored in text.
          const body = Buffer.concat(kept).toString('utf8').replace(/\0/g, '');
          done({ ok, status, error: ok ? null : `HTTP ${status}`, body, timedOut: false });
        };
        res.once('end', finish);
        res.once('close', finish);
        res.once('error', finish);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done({ ok: false, status: null, error: `no answer within ${timeoutMs / 1000} s`, body: null, timedOut: true });
    }, timeoutMs);
    req.once('error', (e) => done({ ok: false, status: null, error: (e as NodeJS.ErrnoException).code ?? e.message, body: null, timedOut: false }));
    if (a.signal?.aborted) return stopped();
    a.signal?.addEventListener('abort', stopped, { once: true });
    req.end(a.body);
  });
}
