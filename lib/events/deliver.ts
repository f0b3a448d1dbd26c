import 'server-only';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { resolveDestination, type Lookup } from './ssrf';
import { signWebhook } from './sign';

/** API.md: an attempt that has no answer within 10 s has failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Bytes of a receiver's answer read before the connection is dropped (only its status matters). */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface Attempt {
  url: string;
  secret: string;
  id: string;
  body: string;
  allowPrivate: boolean;
  lookup?: Lookup;
}

export type AttemptResult = { ok: boolean; status: number | null; error: string | null };

/**
 * One signed POST (Standard Webhooks headers). The destination is resolved and checked now
 * (lib/events/ssrf.ts) and the socket connects to exactly the address checked: the request's
 * `lookup` answers with it, so a second resolution cannot point it elsewhere. No redirect is
 * followed; the answer's body is read up to 64 KiB and dropped.
 */
export async function attemptDelivery(a: Attempt): Promise<AttemptResult> {
  let dest: { address: string; family: 4 | 6 };
  const url = new URL(a.url);
  try {
    dest = await resolveDestination(url, a.allowPrivate, a.lookup);
  } catch (e) {
    return { ok: false, status: null, error: (e as Error).message };
  }
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
      resolve(r);
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
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > MAX_RESPONSE_BYTES) res.destroy();
        });
        const finish = () => {
          req.destroy();
          done({ ok: status >= 200 && status < 300, status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` });
        };
        res.once('end', finish);
        res.once('close', finish);
        res.once('error', finish);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done({ ok: false, status: null, error: 'no answer within 10 s' });
    }, DELIVERY_TIMEOUT_MS);
    req.once('error', (e) => done({ ok: false, status: null, error: (e as NodeJS.ErrnoException).code ?? e.message }));
    req.end(a.body);
  });
}
