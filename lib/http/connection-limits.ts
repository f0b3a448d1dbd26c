/**
 * Bounds on what one client can hold open: connections per address and
 * per listener, and how long a request may take to arrive. Framework-free; server.ts applies
 * them to both listeners.
 */
import 'server-only';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AppError } from '../errors';
import { normalizeIp } from './client-ip';
import { jsonErrorReply } from './reply-errors';

/**
 * Routes whose bodies may legitimately take long (a 48-64 MB part on a slow phone, a site's
 * deploy, a 500-file complete, a one-request share): they keep the long server-wide limit. Every other request must
 * have arrived, headers and body, within the short one.
 */
const LONG_BODY = /^\/api\/(?:shares\/upload\/(?:chunk|complete)|shares\/files?|upload)(?:[/?]|$)/;

export const takesLongBody = (method: string, url: string) => method !== 'GET' && method !== 'HEAD' && LONG_BODY.test(url);

/** Open connections per peer address, both listeners together (issue 22: the cap was per listener). */
const open = new Map<string, number>();

/**
 * Caps open connections per peer address (`perIp`, 0: none; counted over every listener this is
 * applied to) and per listener (`total`, 0: none). A connection past a cap is closed before a
 * byte is read. Behind a proxy every connection comes from the proxy, so the caller passes
 * perIp = 0 there (the proxy caps).
 */
export function capConnections(server: Server, opts: { perIp: number; total: number }): void {
  if (opts.total > 0) server.maxConnections = opts.total;
  if (opts.perIp <= 0) return;
  server.on('connection', (socket: Socket) => {
    const ip = normalizeIp(socket.remoteAddress ?? 'unknown');
    const n = (open.get(ip) ?? 0) + 1;
    if (n > opts.perIp) {
      socket.destroy();
      return;
    }
    open.set(ip, n);
    socket.once('close', () => {
      const left = (open.get(ip) ?? 1) - 1;
      if (left <= 0) open.delete(ip);
      else open.set(ip, left);
    });
  });
}

/**
 * A request that has not fully arrived `ms` after it began is answered 408 and its connection
 * closed (or just closed once a reply is under way). The timer outlives the reply while the
 * body is still coming: a client that keeps trickling an unread body does not keep the socket.
 */
export function limitRequestTime(req: IncomingMessage, res: ServerResponse, ms: number): void {
  // A request without a body has arrived with its headers (headersTimeout guards those). No
  // timer for it: one per GET, alive for `ms` on a keep-alive socket, kept every request's
  // objects alive that long, and the young generation's collections slowed down.
  if (req.complete || !hasBody(req)) return;
  // Kept here: once the reply ends, Node detaches the socket from req (req.socket becomes null).
  const socket = req.socket;
  const timer = setTimeout(() => {
    if (req.complete) return;
    if (!res.headersSent && !res.writableEnded) {
      try {
        const reply = jsonErrorReply(new AppError('request_timeout', 'The request took too long to arrive'), { Connection: 'close' });
        res.writeHead(reply.status, reply.headers);
        res.end(reply.body);
      } catch {
        /* the socket is closed below either way */
      }
    }
    // Give the 408 a moment to leave, then drop the connection whatever the client does.
    setTimeout(() => socket.destroy(), 200).unref();
  }, ms);
  timer.unref();
  // Both listeners go once either fires: a keep-alive socket carries many requests, and a
  // listener left on it per request would keep every one of them (req, res, timer) alive.
  const clear = () => {
    clearTimeout(timer);
    req.off('end', clear);
    socket.off('close', clear);
  };
  req.once('end', clear);
  socket.once('close', clear);
}

/** Whether a body follows the headers (RFC 9112 §6.3: a length above 0 or a transfer coding). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
