import 'server-only';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline, Readable } from 'node:stream';

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
}

export function fromNode(req: IncomingMessage, ip: string): FastRequest {
  return {
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
    // pipeline, not pipe: a client that left while the reply was being prepared has already
    // closed `res`, and only pipeline then destroys the body (and closes its file) at once.
    pipeline(body, res, () => {});
    // Observed after pipeline's own listener, so the stream flows only into the response.
    if (reply.onComplete) whenFullyRead(body, Number(reply.headers['Content-Length']), reply.onComplete);
    return;
  }
  res.end(body);
  reply.onComplete?.();
}

/** Calls `done` when `length` bytes have passed through the (already piped) stream. */
function whenFullyRead(body: Readable, length: number, done: () => void): void {
  if (!(length > 0)) {
    body.once('end', done);
    return;
  }
  let seen = 0;
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen >= length) {
      body.off('data', onData);
      done();
    }
  };
  body.on('data', onData);
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

export function jsonReply(status: number, data: unknown, extra: Record<string, string | string[]> = {}): FastReply {
  return {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...extra },
    body: JSON.stringify(data),
  };
}
