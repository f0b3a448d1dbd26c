import 'server-only';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { giveChunk, isPooled } from '../storage/chunk-pool';
import { HANDOFF_LENGTH_HEADER, HANDOFF_OBJECT_HEADER, handoffHeaderValue, handoffOf } from './handoff';
import type { Runtime } from '../runtime';

/**
 * The framework-free request/reply pair of what server.ts answers before Next: /p/*, /f/<id>/*
 * (items, the ZIP, the share page's gate), the chunk upload and the /api refusals.
 */
export interface FastRequest {
  method: string;
  /** Path and query exactly as received, still percent-encoded. */
  url: string;
  header(name: string): string | undefined;
  ip: string;
  body: Readable | null;
  /** Forwarded by the hosted front, which can stream a large object itself (lib/http/handoff.ts). */
  handoff?: boolean;
  /** The runtime of the service whose listener took the request. */
  rt: Runtime;
}

export interface FastReply {
  status: number;
  headers: Record<string, string | string[]>;
  body?: Buffer | string | Readable | null;
  /**
   * Called once when the whole body (its Content-Length) has been handed to the socket, before
   * the next request of the client can arrive; never when the client leaves early.
   */
  onComplete?: () => void;
  /**
   * Called once when the response is over (sent whole, or the client left), with the body
   * bytes handed to the socket: one call per response, nothing per chunk.
   */
  onSettle?: (sent: number) => void;
}

export function fromNode(req: IncomingMessage, ip: string, rt: Runtime): FastRequest {
  return {
    rt,
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    header: (name) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v.join(', ') : v;
    },
    ip,
    body: req,
  };
}

/**
 * Writes a reply, and never leaves a response hanging: a header Node refuses (a character
 * above U+00FF, a newline) becomes a 500 if nothing was sent yet, else the socket is closed.
 */
export function writeNodeReply(res: ServerResponse, reply: FastReply, method: string): void {
  const body = reply.body;
  if (res.headersSent) {
    // Already answered by a guard (lib/http/stalls.ts: an upload arriving too slowly gets its
    // 408 while the handler still waits on the store): this late reply has no one to go to.
    if (body instanceof Readable) body.destroy();
    return;
  }
  const handoff = handoffOf(body);
  if (handoff) {
    // The hosted front streams these bytes itself: it gets the headers and where they are.
    (body as Readable).destroy();
    const length = reply.headers['Content-Length'];
    res.writeHead(reply.status, { ...reply.headers, [HANDOFF_OBJECT_HEADER]: handoffHeaderValue(handoff), [HANDOFF_LENGTH_HEADER]: String(length), 'Content-Length': '0' });
    res.end();
    return;
  }
  try {
    res.writeHead(reply.status, reply.headers);
  } catch (e) {
    if (body instanceof Readable) body.destroy();
    failReply(res, e);
    return;
  }
  if (method === 'HEAD' || body == null) {
    if (body instanceof Readable) body.destroy();
    res.end();
    return;
  }
  if (body instanceof Readable) {
    pump(body, res, Number(reply.headers['Content-Length']), reply.onComplete, reply.onSettle);
    return;
  }
  const settle = reply.onSettle;
  if (settle) {
    const length = typeof body === 'string' ? Buffer.byteLength(body) : (body?.length ?? 0);
    res.once('close', () => settle(res.writableFinished ? length : 0));
  }
  if (Buffer.isBuffer(body) && isPooled(body)) res.end(body, () => giveChunk(body));
  else res.end(body);
  reply.onComplete?.();
}

/**
 * Pipes body into res, as `pipeline` would (backpressure; a client that left, or left while the
 * reply was being prepared, destroys the body and closes its file at once; a failing body
 * destroys the response), gives each pooled chunk back to the store's pool once the socket has
 * taken it (lib/storage/chunk-pool.ts), and calls `onComplete` once `length` bytes went out (at
 * the end when the length is unknown).
 */
function pump(body: Readable, res: ServerResponse, length: number, onComplete?: () => void, onSettle?: (sent: number) => void): void {
  const stop = () => {
    if (!body.destroyed) body.destroy();
  };
  if (res.destroyed || res.writableEnded) {
    onSettle?.(0);
    return stop();
  }
  let seen = 0;
  let complete = onComplete;
  const onData = (chunk: Buffer) => {
    const written = isPooled(chunk) ? res.write(chunk, (err) => err || giveChunk(chunk)) : res.write(chunk);
    seen += chunk.length;
    if (complete && length > 0 && seen >= length) {
      complete();
      complete = undefined;
    }
    if (!written) body.pause();
  };
  const onDrain = () => body.resume();
  body.on('data', onData);
  res.on('drain', onDrain);
  body.once('end', () => {
    res.end();
    if (complete && !(length > 0)) complete();
  });
  body.once('error', () => res.destroy());
  res.once('close', () => {
    body.off('data', onData);
    res.off('drain', onDrain);
    if (!body.readableEnded) stop();
    onSettle?.(seen);
  });
}

/** The last resort of the fast paths: a bare 500, or a closed socket once headers are out. */
export function failReply(res: ServerResponse, err: unknown): void {
  console.error('[htmls] fast path error:', err);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  try {
    res.removeHeader('Content-Length');
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end('Internal error');
  } catch {
    res.destroy();
  }
}

/** Runs a fast handler and writes its reply; a rejection ends the response too. */
export function runFast(res: ServerResponse, method: string, handler: () => Promise<FastReply>): void {
  handler().then(
    (reply) => writeNodeReply(res, reply, method),
    (err) => failReply(res, err),
  );
}

/** What next.config.mjs gives every Next response: the framework-free replies say the same. */
export const SECURITY_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'strict-origin-when-cross-origin' } as const;

export function jsonReply(status: number, data: unknown, extra: Record<string, string | string[]> = {}): FastReply {
  return {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...SECURITY_HEADERS, ...extra },
    body: JSON.stringify(data),
  };
}
