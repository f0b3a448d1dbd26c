/**
 * Stalled clients (issue 22, items 1 and 2): a response its client stops reading, and an upload
 * body its client trickles. Either held a socket — and on S3 a store socket — for as long as
 * the client liked: 128 never-read downloads took the whole service down. Framework-free;
 * server.ts applies both to every request on both listeners.
 */
import 'server-only';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../errors';
import { jsonErrorReply } from './json-error-reply';

/** What an upload body must bring in each stall span: 64 KiB (a phone on 2G sends more). */
export const MIN_BODY_BYTES_PER_SPAN = 64 * 1024;

/**
 * Drops the connection when the response has bytes waiting for the client and none left for
 * `ms` (the socket's inactivity timer: reads, writes and write-queue progress reset it). Its
 * close destroys the body being piped (lib/http/fast.ts pump, Next's own pipes), which closes
 * the file or gives the S3 socket back. A request still being worked on, with nothing to send
 * yet, is not stalled: the timer re-arms on the next activity.
 */
export function dropStalledResponse(res: ServerResponse, ms: number): void {
  res.setTimeout(ms, () => {
    const socket = res.socket;
    if (!socket || socket.destroyed) return;
    if (res.writableNeedDrain || socket.writableLength > 0) socket.destroy();
  });
}

/**
 * Drops the connection of a response whose client takes none of it (issue 39, item 10a), sooner
 * than the stall guard: checked every half `ms`, a response with bytes waiting whose socket took
 * nothing more since the last check (the kernel's buffers filled at once, and the client reads
 * nothing) is cut. Once the socket has taken more across two checks with bytes waiting, the
 * client is reading, and the stall guard alone watches it. A reconnecting attacker's downloads
 * that are opened and never read then hold their connection and download slot for about `ms`
 * instead of the whole stall timeout. A response still being prepared, or one the client keeps
 * up with, has nothing waiting and is left alone.
 */
export function dropUnreadResponse(res: ServerResponse, ms: number): void {
  let last = -1;
  const timer = setInterval(() => {
    const socket = res.socket;
    if (!socket || socket.destroyed || res.writableFinished) return clear();
    // What the kernel has taken on this connection (bytesWritten counts what is still queued too).
    const taken = socket.bytesWritten - socket.writableLength;
    const waiting = res.writableNeedDrain || socket.writableLength > 0;
    if (waiting && last >= 0) {
      if (taken === last) socket.destroy();
      // Either way this guard is done: cut, or the client reads and the stall guard takes over.
      return clear();
    }
    last = waiting ? taken : -1;
  }, Math.max(1, ms / 2));
  timer.unref();
  const clear = () => {
    clearInterval(timer);
    res.off('close', clear);
  };
  res.once('close', clear);
}

/**
 * A long body (an upload part, a site, a complete) must bring `MIN_BODY_BYTES_PER_SPAN` in each
 * span of `ms`, or it is answered 408 (if nothing was sent yet) and its connection closed. Counted
 * on the socket, so nothing here reads the body or changes its flow.
 */
export function requireBodyRate(req: IncomingMessage, res: ServerResponse, ms: number): void {
  if (req.complete) return;
  const socket = req.socket;
  let last = socket.bytesRead;
  const timer = setInterval(() => {
    if (req.complete || socket.destroyed) return clear();
    const read = socket.bytesRead;
    if (read - last >= MIN_BODY_BYTES_PER_SPAN) {
      last = read;
      return;
    }
    clear();
    if (!res.headersSent && !res.writableEnded) {
      try {
        const reply = jsonErrorReply(new AppError('request_timeout', 'The upload arrived too slowly'), { Connection: 'close' });
        res.writeHead(reply.status, reply.headers);
        res.end(reply.body);
      } catch {
        /* the socket is closed below either way */
      }
    }
    // Give the 408 a moment to leave, then drop the connection (and the body piped to the store).
    setTimeout(() => socket.destroy(), 200).unref();
  }, ms);
  timer.unref();
  const clear = () => {
    clearInterval(timer);
    req.off('end', clear);
    socket.off('close', clear);
  };
  req.once('end', clear);
  socket.once('close', clear);
}
