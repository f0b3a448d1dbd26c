/**
 * The hosted front (issue 29): the hosted port's listener, in a worker thread of its own, built
 * as `.next/htmls/hosted-front.mjs` beside the server.
 *
 * Why a thread: on Node 20 every async resource a response creates runs the async_hooks of the
 * `AsyncLocalStorage` instances Next enables in its process, and Next wraps `process.nextTick`;
 * a trivial handler inside the server's process cost ~1.6× the CPU of the same handler in a
 * bare Node process (docs/performance.md). This thread loads nothing of Next or the database:
 * it answers the steady state of a site — a finished reply kept by the main thread — with the
 * very checks the main thread makes (lib/http/guest/reply-answer.ts: the site cache's generation and
 * staleness, the unlock cookie, If-None-Match), and forwards everything else (a first request, a
 * range, a large file, the password form, a preview) to the main thread's inner hosted listener,
 * which serves it as it served the hosted port before, with this listener's client address.
 *
 * The listener keeps the main listener's rules: the same time limits, the stall guard, the
 * per-address and total connection caps.
 */
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { jsonErrorReply } from './json-error-reply';
import { writeNodeReply } from './fast';
import { HANDOFF_LENGTH_HEADER, HANDOFF_OBJECT_HEADER, parseHandoffHeader, type HandoffObject } from './handoff';
import { createFsStorage } from '../storage/fs';
import type { StorageDriver } from '../storage/types';
import type { S3Settings } from '../env';
import { AppError } from '../errors';
import { resolveClientIp } from './client-ip';
import { configureListener, guardRequest } from './connection-limits';
import { FRONT_HITS, FRONT_IP_HEADER, FRONT_OBJECTS, FRONT_SECRET_HEADER, KEY_GEN, KEY_READ_AT, SITE_GEN, SITES_READ_AT, type FromFront, type ToFront } from '../front-link';
import type { FrontOptions } from './start-front';
import { answerFrom, newReplies, siteScope, type ReplyChecks } from './guest/reply-answer';
import { canonicalHostName } from '../hosting/host-name';
import { localSiteOf } from './origin';
import { KEY_TTL_MS, keyAge, newVerifiedUnlocks, unexpired } from '../auth/unlock-rules';

/** Response headers of the inner hop that are its own, not the client's. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding']);

/**
 * The inner hop's reply headers that are the client's: not the hop's own connection headers (a
 * close it asks for is the client's too, unless the front streams the body itself) nor the
 * handoff's; for a handed-over object not its Content-Length either (that of the hop's empty body).
 */
function clientHeaders(inner: IncomingMessage, handedOver: boolean): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  const r = inner.rawHeaders;
  for (let i = 0; i < r.length; i += 2) {
    const name = r[i].toLowerCase();
    if (name === HANDOFF_OBJECT_HEADER || name === HANDOFF_LENGTH_HEADER || (handedOver && name === 'content-length')) continue;
    if (HOP_HEADERS.has(name) && (handedOver || !(name === 'connection' && r[i + 1].toLowerCase() === 'close'))) continue;
    const had = headers[r[i]];
    headers[r[i]] = had === undefined ? r[i + 1] : [had, r[i + 1]].flat();
  }
  return headers;
}

function run(opts: FrontOptions): void {
  const port = parentPort!;
  const post = (m: FromFront) => port.postMessage(m);
  const { ints, times } = opts.shared;
  const replies = newReplies();
  /** Custom domains (host → slug) as the main thread last loaded them: a Host's reply scope. */
  let domains = new Map<string, string>();
  /**
   * Unlock cookies the main thread accepted, by value (an HMAC: unique to its subject): the
   * subject key and the key generation it was accepted under. Looked up by the value alone, so
   * a hit builds no string.
   */
  const verified = newVerifiedUnlocks<{ subject: string; keyGen: number }>();
  let askedKeyAt = 0;

  const checks: ReplyChecks = {
    generation: () => Atomics.load(ints, SITE_GEN),
    fresh: () => Date.now() - times[SITES_READ_AT] <= opts.staleAfterMs,
    unlocked(subject, value) {
      if (!value) return false;
      const now = Date.now();
      const age = keyAge(times[KEY_READ_AT], now);
      if (age === 'stale') return false;
      // The main thread reads it again (once at a time); asked at most every quarter life.
      if (age === 'due' && now - askedKeyAt >= KEY_TTL_MS / 4) {
        askedKeyAt = now;
        post({ t: 'refresh-key' });
      }
      const known = verified.peek(value);
      if (!known || known.keyGen !== Atomics.load(ints, KEY_GEN) || known.subject !== subject) return false;
      return unexpired(value, now);
    },
    // Counted before the reply goes out: a test reading the count once it has its answer must
    // see it (counted after, a thread paused between the two showed the hit late, inside the
    // next request's window: tests/hosted-front.test.ts).
    answering: () => void Atomics.add(ints, FRONT_HITS, 1),
  };

  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 64 });

  /** Everything not answered here: the main thread's inner listener serves it, bytes piped back. */
  function forward(req: IncomingMessage, res: ServerResponse): void {
    const ip = resolveClientIp(req.socket.remoteAddress, req.headers['x-forwarded-for'] as string | undefined, opts.trustProxy);
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, [FRONT_IP_HEADER]: ip, [FRONT_SECRET_HEADER]: opts.secret };
    delete headers.connection;
    delete headers['keep-alive'];
    const out = request({ host: '127.0.0.1', port: opts.innerPort, method: req.method, path: req.url, headers, agent });
    out.on('response', (inner) => {
      const named = inner.headers[HANDOFF_OBJECT_HEADER];
      const object = typeof named === 'string' ? parseHandoffHeader(named, opts.secret) : null;
      if (object) return streamObject(req, res, ip, inner, object);
      try {
        res.writeHead(inner.statusCode ?? 502, clientHeaders(inner, false));
      } catch {
        inner.destroy();
        res.destroy();
        return;
      }
      inner.on('error', () => res.destroy());
      // A reply the inner hop cut short is cut short here too, not ended as if whole.
      inner.on('aborted', () => res.destroy());
      inner.pipe(res);
    });
    out.on('error', () => {
      if (res.headersSent) return void res.destroy();
      const reply = jsonErrorReply(new AppError('internal_error', 'The hosted origin could not reach the service'), { Connection: 'close' });
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body);
    });
    // The client went away (or the stall guard dropped it): so does the inner request.
    res.on('close', () => {
      if (!res.writableFinished) out.destroy();
    });
    req.pipe(out);
  }

  /** Slots asked of the main thread, by id: the count per address is one for both threads. */
  const slotWaits = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  let slotIds = 0;
  /** As lib/http/download-slots.ts's takeDownloadSlot: resolves once `ip` may stream; freed when `res` closes. */
  function takeSlot(ip: string, res: ServerResponse): Promise<void> {
    const id = ++slotIds;
    res.once('close', () => {
      slotWaits.delete(id);
      post({ t: 'slot-free', id });
    });
    return new Promise((resolve, reject) => {
      slotWaits.set(id, { resolve, reject });
      post({ t: 'slot', id, ip });
    });
  }

  let store: Promise<StorageDriver> | undefined;
  const storage = () =>
    (store ??= opts.storage.kind === 's3' ? import('../storage/s3').then((m) => m.createS3Storage((opts.storage as { s3: S3Settings }).s3)) : Promise.resolve(createFsStorage(opts.storage.root)));

  /**
   * A large object the main thread handed over (lib/http/handoff.ts): its headers as the main
   * thread made them, its bytes from the store here, under a download slot of the main thread's
   * count (takeSlot).
   */
  function streamObject(req: IncomingMessage, res: ServerResponse, ip: string, inner: IncomingMessage, target: HandoffObject): void {
    inner.resume();
    const headers = clientHeaders(inner, true);
    headers['Content-Length'] = String(inner.headers[HANDOFF_LENGTH_HEADER]);
    const status = inner.statusCode ?? 200;
    const method = req.method ?? 'GET';
    // An object gone since the main thread looked (a deploy's clean-up between the two) is a
    // 404, as everywhere (lib/errors.ts).
    const fail = (e: unknown) => writeNodeReply(res, jsonErrorReply(e), method);
    const range = target.start === undefined || target.end === undefined ? undefined : { start: target.start, end: target.end };
    takeSlot(ip, res)
      .then(() => storage())
      .then((s) => {
        // The client may have gone while this waited for a slot.
        if (res.destroyed) return;
        return s.get(target.key, range).then((got) => {
          Atomics.add(ints, FRONT_OBJECTS, 1);
          writeNodeReply(res, { status, headers, body: got.body }, method);
        });
      })
      .catch(fail);
  }

  const server = createServer({ connectionsCheckingInterval: 5000 }, (req, res) => {
    // The hosted origin serves files: no request to it has a body worth waiting for.
    guardRequest(req, res, opts.limits, false);
    // `<slug>.localhost` is that project's own origin: the same URL is another file there.
    const own = localSiteOf(req.headers.host) ?? (domains.size > 0 ? domains.get(canonicalHostName(req.headers.host) ?? '') : null);
    if (answerFrom(replies, checks, req, res, own ? siteScope(own) : '')) return;
    forward(req, res);
  });
  configureListener(server, opts.limits, opts.connections);

  port.on('message', (m: ToFront) => {
    switch (m.t) {
      case 'keep':
        replies.set(m.key, { gen: m.gen, status: m.status, raw: m.raw, body: Buffer.from(m.body), etag: m.etag, lock: m.lock, hits: 0 });
        return;
      case 'slot': {
        const wait = slotWaits.get(m.id);
        slotWaits.delete(m.id);
        if (m.refused !== undefined) wait?.reject(new AppError('rate_limited', m.refused, { 'Retry-After': '5' }));
        else wait?.resolve();
        return;
      }
      case 'domains':
        domains = new Map(m.index);
        return;
      case 'unlock':
        verified.set(m.value, { subject: m.subject, keyGen: m.keyGen });
        return;
      case 'close':
        server.close(() => {
          agent.destroy();
          post({ t: 'closed' });
        });
        server.closeIdleConnections();
        server.closeAllConnections();
        return;
    }
  });
  server.once('error', (e) => post({ t: 'failed', message: e.message }));
  server.listen(opts.port, opts.host, () => {
    const addr = server.address();
    post({ t: 'listening', port: typeof addr === 'object' && addr ? addr.port : opts.port });
  });
}

if (parentPort && workerData?.htmlsHostedFront) run(workerData.htmlsHostedFront as FrontOptions);
