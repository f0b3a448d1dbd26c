/**
 * Bounds on what one client can hold open: connections per address and
 * per listener, and how long a request may take to arrive. Framework-free; server.ts applies
 * them to both listeners.
 */
import 'server-only';
import { randomInt } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AppError } from '../errors';
import { normalizeIp } from './client-ip';
import { jsonErrorReply } from './json-error-reply';
import { dropStalledResponse, dropUnreadResponse, requireBodyRate } from './stalls';
import { LONGEST_REQUEST_MS } from './timeouts';

/** A listener's limits (server.ts's two listeners, the hosted front's, the front's inner one). */
export interface ListenerLimits {
  /** REQUEST_TIMEOUT_SECONDS: how long a request other than an upload may take to arrive. */
  requestTimeoutMs: number;
  /** STALL_TIMEOUT_SECONDS: how long a reply may sit unread, an upload body trickle. */
  stallTimeoutMs: number;
  /** FIRST_BYTE_TIMEOUT_SECONDS: how long a reply may wait for its client to take any of it (absent: the stall timeout). */
  firstByteTimeoutMs?: number;
  /** Open connections per peer address (0: none, behind a proxy or on loopback). */
  perIp: number;
  /** Open connections on this listener (0: none). */
  total: number;
}

/**
 * The listener-wide rules: uploads may legitimately take long (the console allows 30 minutes),
 * which is the server-wide cap; every other request gets the short one per request
 * (guardRequest). Slow headers never may. Then the connection caps.
 */
export function configureListener(server: Server, limits: ListenerLimits, connections: ConnectionTable): Server {
  server.requestTimeout = LONGEST_REQUEST_MS;
  server.headersTimeout = Math.min(20 * 1000, limits.requestTimeoutMs);
  server.keepAliveTimeout = 5 * 1000;
  capConnections(server, { perIp: limits.perIp, total: limits.total }, connections);
  return server;
}

/**
 * The per-request rules, first thing in every listener's handler: only uploads (`longBody`:
 * lib/http/routes.ts takesLongBody) may take long to arrive, at a minimum pace; anything else has REQUEST_TIMEOUT_SECONDS. No response may sit
 * unread for longer than STALL_TIMEOUT_SECONDS, nor wait longer than FIRST_BYTE_TIMEOUT_SECONDS
 * for its client to take its first bytes.
 */
export function guardRequest(req: IncomingMessage, res: ServerResponse, limits: ListenerLimits, longBody: boolean): void {
  if (longBody) requireBodyRate(req, res, limits.stallTimeoutMs);
  else limitRequestTime(req, res, limits.requestTimeoutMs);
  dropStalledResponse(res, limits.stallTimeoutMs);
  if (limits.firstByteTimeoutMs && limits.firstByteTimeoutMs < limits.stallTimeoutMs) dropUnreadResponse(res, limits.firstByteTimeoutMs);
}


/**
 * Open connections per peer address, both listeners together (issue 22: the cap was per
 * listener). The hosted port's listener runs in the hosted front's worker thread, which has its
 * own module instances: the count lives in shared memory both threads add to. A count-min sketch:
 * each address adds to one slot in each of two rows, chosen by a hash with a random seed, and its
 * count is the smaller of the two. Two addresses share a count only if they share both slots
 * (about 1 in 2^32 per pair, and an outsider cannot aim at another address's slots without
 * the seed); then the pair shares one cap, which costs a connection refused early, never one
 * let past it.
 */
export type ConnectionTable = Int32Array;

const ROW = 1 << 16;
/** Two rows of counts, then the two rows' seeds: one table per service (server.ts), which its hosted front is given. */
export function createConnectionTable(): ConnectionTable {
  const table = new Int32Array(new SharedArrayBuffer(4 * (2 * ROW + 2)));
  table[2 * ROW] = randomInt(2 ** 31);
  table[2 * ROW + 1] = randomInt(2 ** 31);
  return table;
}

/**
 * FNV-1a of the address from the row's seed, then MurmurHash3's finalizer: a slot of `row`. The
 * finalizer matters: FNV's low bits depend only on the low bits of its state, so without it the
 * seed's high half would not count and the two rows would collide together more often.
 */
function slot(table: ConnectionTable, row: 0 | 1, ip: string): number {
  let h = (0x811c9dc5 ^ table[2 * ROW + row]) >>> 0;
  for (let i = 0; i < ip.length; i++) h = Math.imul(h ^ ip.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return row * ROW + (h & (ROW - 1));
}

/**
 * Caps open connections per peer address (`perIp`, 0: none; counted in `table`, shared by every
 * listener of the service, in any thread) and per listener (`total`, 0: none). A connection past
 * a cap is closed before a byte is read. Behind a proxy every connection comes from the proxy, so
 * the caller passes perIp = 0 there (the proxy caps).
 */
export function capConnections(server: Server, opts: { perIp: number; total: number }, table: ConnectionTable): void {
  if (opts.total > 0) server.maxConnections = opts.total;
  if (opts.perIp <= 0) return;
  server.on('connection', (socket: Socket) => {
    const ip = normalizeIp(socket.remoteAddress ?? 'unknown');
    const a = slot(table, 0, ip);
    const b = slot(table, 1, ip);
    const n = Math.min(Atomics.add(table, a, 1), Atomics.add(table, b, 1)) + 1;
    const leave = () => {
      Atomics.sub(table, a, 1);
      Atomics.sub(table, b, 1);
    };
    if (n > opts.perIp) {
      leave();
      socket.destroy();
      return;
    }
    socket.once('close', leave);
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
