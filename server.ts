/**
 * The service: the main listener, and in the default setup a second listener for hosted sites
 * on HOSTED_PORT. `main()` is the production entry point (`npm start` runs the compiled module's
 * main()); `createService({ env })` is the same service without the process around it (signals,
 * exit, heap tuning), which the tests run inside their own process on port 0 — two or more of
 * them in one process if they like, each with its own runtime (database, store, caches, timers). Which listener and host
 * serve what is decided by lib/http/origin.ts alone. The byte-serving paths (/p/*, /f/<id>/<file>,
 * the share ZIP, the chunk upload, the one-request share uploads), the share page's gate and the /api refusals are answered by
 * framework-free handlers; everything else goes to Next.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import next from 'next';
import { boot } from './lib/boot';
import { EnvError, getEnv, installEnv, parseEnv, uninstallEnv, type Env } from './lib/env';
import { tuneHeap } from './lib/heap-tuning';
import { safeEqual } from './lib/auth/crypto';
import { GUEST_CACHE_STALE_MS } from './lib/epoch-cache';
import { FRONT_IP_HEADER, FRONT_SECRET_HEADER, frontAttached, frontHits, frontObjects } from './lib/front-link';
import { setHostedPort } from './lib/hosting/hosted-port';
import { startFront, type Front } from './lib/http/start-front';
import { setHandoffToken } from './lib/http/handoff';
import { installSurface } from './lib/http/next-link';
import { nextSurface } from './lib/http/next-surface';
import { answerCached } from './lib/http/guest/reply-cache';
import { siteScope } from './lib/http/guest/reply-answer';
import { replyScope, serveHosted } from './lib/http/guest/serve-hosted';
import { resolveClientIp } from './lib/http/client-ip';
import { withRequestContext } from './lib/http/request-context';
import { dispatchApi } from './lib/http/api-dispatch';
import { fromNode, runFast, writeNodeReply, type FastReply } from './lib/http/fast';
import { canonicalHostName } from './lib/hosting/host-name';
import { decideHost, localSiteOf, type Listener } from './lib/http/origin';
import { domainIndexNow, loadDomainIndex, type DomainIndex } from './lib/hosting/domains';
import { errorReply } from './lib/http/reply-errors';
import { jsonErrorReply } from './lib/http/json-error-reply';
import { configureListener, createConnectionTable, guardRequest, type ListenerLimits } from './lib/http/connection-limits';
import { takeDownloadSlot } from './lib/http/download-slots';
import { principalKeyOf, requestBudget } from './lib/http/request-budget';
import { AppError, noSuchApiRoute, notFound } from './lib/errors';
import { closeRuntime, openRuntime, setDefaultRuntime, type Runtime } from './lib/runtime';
import { stopJanitor } from './lib/janitor';
import { stopEventWorker } from './lib/events/worker';
import { stopPreviewWorker } from './lib/shares/previews/worker';
import { stopEpochWatches } from './lib/epoch-watch';
import { flushDownloadCounts } from './lib/shares/count-downloads';
import { guestRouteOf, isApiPath, splitUrl, takesLongBody } from './lib/http/routes';

/**
 * The /api answers Next cannot give as the contract's JSON: an undecodable path (Next would
 * answer a plain-text 500) is 400 invalid_request, and /api itself 404 (every other unknown
 * route reaches app/api/[...path]). Null: on to Next.
 */
function refuseApiPath(pathname: string): FastReply | null {
  try {
    decodeURIComponent(pathname);
  } catch {
    return jsonErrorReply(new AppError('invalid_request', 'The request path is not valid percent-encoded UTF-8'));
  }
  if (pathname === '/api' || pathname === '/api/') return jsonErrorReply(noSuchApiRoute());
  return null;
}

export { parseEnv };

/**
 * A redirect that follows from the Referer alone (a root asset asked for by a project's page on
 * the shared origin) may be kept by the browser, keyed by that Referer; every other redirect
 * depends on settings that may change, so it is not kept.
 */
function redirectCaching(d: { byReferer?: true }): Record<string, string> {
  return d.byReferer ? { 'Cache-Control': 'private, max-age=300', Vary: 'Referer' } : { 'Cache-Control': 'no-store' };
}

/**
 * The project whose own origin a Host on the hosted port is (`<slug>.localhost` or a custom
 * domain), null for the shared hosted origin, undefined while the domain index is being read again.
 */
function hostedSiteOf(rt: Runtime, host: string | undefined): string | null | undefined {
  const local = localSiteOf(host);
  if (local) return local;
  const index = domainIndexNow(rt);
  if (!index) return undefined;
  return index.size > 0 ? (index.get(canonicalHostName(host) ?? '') ?? null) : null;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

export interface ServiceOptions {
  /** Next in development mode (`npm run dev`). */
  dev?: boolean;
  /**
   * false: no Next at all — /api is answered by the same route modules straight from the
   * listener (lib/http/api-dispatch.ts), pages are 404. For API tests, which then start in a
   * fraction of the time; production always serves pages.
   */
  pages?: boolean;
  /** Where the service's own start-up lines go (default: the console). */
  log?: (line: string) => void;
  /** Where its start-up warnings go (default: the console's stderr, console.warn). */
  warn?: (line: string) => void;
}

/** What createService starts: the parsed settings (parseEnv) and the options. */
export interface ServiceConfig extends ServiceOptions {
  env: Env;
}

export interface FrontDiagnostics {
  /** Its inner listener on 127.0.0.1: only the front may use it. */
  innerPort: number;
  /** How many requests it answered itself, from finished replies. */
  hits(): number;
  /** How many large objects it streamed from the store itself. */
  objects(): number;
}

export interface Service {
  /** The bound ports (PORT=0 binds a free one; the hosted port is null without a second listener). */
  port: number;
  hostedPort: number | null;
  /** What can be read of the hosted front (lib/http/hosted-front.ts), null without one. */
  front: FrontDiagnostics | null;
  /** The service's own runtime: its database, store, settings and in-memory state. */
  rt: Runtime;
  /** Stops listening, drops open connections, writes buffered counts and closes the database. */
  close(): Promise<void>;
}

/**
 * The services of this process. The first is the default: what code outside any service's
 * request (and getEnv() there) gets. Next is one per process: one service at most has pages.
 */
const inProcess: { live: { rt: Runtime; env: Env }[]; pages: boolean } = { live: [], pages: false };

/**
 * Boots a service on `config.env` in this process. Each has its own runtime (lib/runtime.ts:
 * database, store, and the in-memory state modules keep per runtime: caches, rate limits,
 * download slots, the janitor and the workers), so a process may run several, each on its own
 * settings; the first one started is the process's default.
 */
export async function createService(config: ServiceConfig): Promise<Service> {
  const { env, dev = false, log = console.log, warn = console.warn, pages = true } = config;
  if (pages && inProcess.pages) {
    throw new Error('Next serves the pages of one service per process: start this one with pages: false (only /api and the byte paths)');
  }
  const first = inProcess.live.length === 0;
  if (first) installEnv(env);
  if (pages) inProcess.pages = true;
  let rt: Runtime;
  try {
    rt = await openRuntime(env);
  } catch (e) {
    if (pages) inProcess.pages = false;
    if (first) uninstallEnv(env);
    throw e;
  }
  inProcess.live.push({ rt, env });
  if (first) setDefaultRuntime(rt);
  // Next's pages and route handlers reach lib/ and db/ through this one copy (lib/http/next-link.ts).
  installSurface(nextSurface);
  await boot(rt, log);

  let app: ReturnType<typeof next> | null = null;
  let handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  if (pages) {
    if (!dev) {
      // Next's settings as the build wrote them, handed over as Next's own standalone server does:
      // the release folder (scripts/release.mjs) lacks the build-time parts of Next that loading
      // next.config.mjs takes, and a checkout then runs the settings it was built with.
      process.env.__NEXT_PRIVATE_STANDALONE_CONFIG ??= JSON.stringify(JSON.parse(readFileSync(path.join(process.cwd(), '.next', 'required-server-files.json'), 'utf8')).config);
    }
    app = next({ dev, dir: process.cwd(), hostname: env.host, port: env.port });
    await app.prepare();
    handle = app.getRequestHandler();
  } else {
    handle = async (req, res) => {
      const { pathname } = splitUrl(req.url ?? '/');
      if (isApiPath(pathname)) return dispatchApi(req, res, pathname);
      writeNodeReply(res, errorReply(notFound('This service runs without pages (an API test server)'), fromNode(req, 'unknown', rt)), req.method ?? 'GET');
    };
  }
  let hostedPort: number | null = null;
  /** The secret of the hosted front's requests to the inner listener (lib/http/hosted-front.ts). */
  const frontSecret = randomBytes(32).toString('base64url');
  // Behind a proxy every connection comes from it: the per-address cap is the proxy's job.
  const limits: ListenerLimits = {
    requestTimeoutMs: env.requestTimeoutMs,
    stallTimeoutMs: env.stallTimeoutMs,
    firstByteTimeoutMs: env.firstByteTimeoutMs,
    perIp: env.trustProxy > 0 ? 0 : env.maxConnectionsPerIp,
    total: env.maxConnections,
  };
  /** Open connections per address, across this service's listeners (the hosted front's too). */
  const connections = createConnectionTable();
  const budget = requestBudget(env.requestsPerSecondPerIp, env.requestsPerSecondPerIp * 10);
  const principalBudget = requestBudget(env.requestsPerSecondPerPrincipal, env.requestsPerSecondPerPrincipal * 10);
  const handler = (served: Listener | 'inner') => (req: IncomingMessage, res: ServerResponse) => {
    let listener: Listener;
    guardRequest(req, res, limits, takesLongBody(req.method ?? 'GET', req.url ?? '/'));
    let ip: string;
    if (served === 'inner') {
      // The hosted front's miss: what it did not answer, for the client it names.
      const secret = req.headers[FRONT_SECRET_HEADER];
      const claimed = req.headers[FRONT_IP_HEADER];
      if (typeof secret !== 'string' || typeof claimed !== 'string' || !safeEqual(secret, frontSecret)) {
        res.writeHead(403, { Connection: 'close' }).end();
        return;
      }
      delete req.headers[FRONT_SECRET_HEADER];
      delete req.headers[FRONT_IP_HEADER];
      ip = claimed;
      listener = 'hosted';
    } else {
      listener = served;
      // The steady state of a public site: a finished reply, before any other work.
      if (listener === 'hosted') {
        const own = hostedSiteOf(rt, req.headers.host);
        if (own !== undefined && answerCached(rt, req, res, own ? siteScope(own) : '')) return;
      }
      ip = resolveClientIp(req.socket.remoteAddress, req.headers['x-forwarded-for'] as string | undefined, env.trustProxy);
    }
    // The host-name index of custom domains comes first; after a hosting change it is read again once.
    const domains = domainIndexNow(rt);
    if (domains) return decideAndServe(req, res, listener, served, ip, domains);
    settle(res, loadDomainIndex(rt).then((loaded) => decideAndServe(req, res, listener, served, ip, loaded)));
  };

  /**
   * The framework-free paths take the service's runtime from the request (FastRequest.rt); what
   * they reach that reads the settings without one (getEnv(): a guest page's DEFAULT_LOCALE and
   * PUBLIC_URL, a password's hashing cost) gets the process's default service's. So a service
   * other than the default serves its requests in its own context: the default (`npm start`'s
   * only one) pays nothing for it.
   */
  const decideAndServe = (req: IncomingMessage, res: ServerResponse, listener: Listener, served: Listener | 'inner', ip: string, domains: DomainIndex): void => {
    if (inProcess.live[0]?.rt === rt) return serveDecided(req, res, listener, served, ip, domains);
    withRequestContext({ ip, rt }, () => serveDecided(req, res, listener, served, ip, domains));
  };

  const serveDecided = (req: IncomingMessage, res: ServerResponse, listener: Listener, served: Listener | 'inner', ip: string, domains: DomainIndex) => {
    const method = req.method ?? 'GET';
    const fastReq = fromNode(req, ip, rt);
    if (served === 'inner') fastReq.handoff = true;
    const decision = decideHost(env, hostedPort, listener, fastReq, domains);
    /**
     * A GET that may stream from the store waits for one of its address's download slots first.
     * Its refusal page's picker posts to the main origin's /locale; on the hosted origin, which
     * has no such path, the page has none (it still follows the cookie and Accept-Language).
     */
    const download = (serve: () => Promise<FastReply>, picker?: null) =>
      runFast(res, method, () =>
        method === 'GET' ? takeDownloadSlot(rt, ip, env.maxDownloadsPerIp, res).then(serve, (e) => errorReply(e, fastReq, picker)) : serve(),
      );
    switch (decision.kind) {
      case 'redirect':
        return writeNodeReply(res, { status: decision.status, headers: { Location: decision.location, ...redirectCaching(decision) }, body: null }, method);
      case 'not-found':
        // The hosted origin serves hosted sites and nothing else: no consoles, no API.
        return writeNodeReply(res, errorReply(notFound(), fastReq, null), method);
      case 'hosted': {
        const opts = { sandbox: decision.sandbox, site: decision.site };
        if (answerCached(rt, req, res, replyScope(opts))) return;
        return download(() => serveHosted(fastReq, opts), null);
      }
    }
    const url = req.url ?? '/';
    const { pathname } = splitUrl(url);
    const api = isApiPath(pathname);
    if (api) {
      const refused = refuseApiPath(pathname);
      if (refused) return writeNodeReply(res, refused, method);
    }
    // The table (lib/http/routes.ts) says what the listener answers itself and how.
    const route = guestRouteOf(url);
    if (route?.kind === 'bytes') return route.download ? download(() => route.serve(fastReq)) : runFast(res, method, () => route.serve(fastReq));
    // Everything past here costs a session lookup, a query or a page render: one address's
    // flood is refused here, in memory, before any of that (byte streams above never count).
    const wait = budget.take(ip);
    // …and one member's session or token from many addresses (hashed, without a lookup).
    const principal = wait > 0 || env.requestsPerSecondPerPrincipal <= 0 ? undefined : principalKeyOf(req.headers);
    const principalWait = principal ? principalBudget.take(principal) : 0;
    if (wait > 0 || principalWait > 0) {
      const refused = new AppError('rate_limited', wait > 0 ? 'Too many requests from this address; slow down' : 'Too many requests with this sign-in; slow down', {
        'Retry-After': String(wait || principalWait),
      });
      return writeNodeReply(res, api ? jsonErrorReply(refused) : errorReply(refused, fastReq), method);
    }
    if (route?.kind === 'budgeted') return runFast(res, method, () => route.serve(fastReq));
    // Next's route handlers read the client's address and their service's runtime from the request's context.
    const toNext = () => withRequestContext({ ip, rt }, () => handle(req, res));
    if (route?.kind === 'page') {
      // The page renders in Next; its 404/410/401 answers are decided here, once.
      route.gate(fastReq).then((reply) => (reply ? writeNodeReply(res, reply, method) : settle(res, toNext())), () => settle(res, toNext()));
      return;
    }
    settle(res, toNext());
  };

  /**
   * Work of a request the listener does not wait on (Next's handler, a route after the domain
   * index): a failure it did not answer itself is logged and answered 500, or the connection
   * ended when the answer had begun — never an unhandled rejection, never a request left hanging.
   */
  const settle = (res: ServerResponse, work: unknown) => {
    Promise.resolve(work).catch((e: unknown) => {
      console.error('[htmls] request failed:', e);
      if (res.headersSent) return void res.destroy();
      res.statusCode = 500;
      res.end();
    });
  };

  const servers: Server[] = [];
  /** One listener's server: the handler, the time limits and the connection caps. */
  const createListener = (listener: Listener | 'inner', own: ListenerLimits = limits) => {
    const server = configureListener(createServer({ connectionsCheckingInterval: 5000 }, handler(listener)), own, connections);
    servers.push(server);
    return server;
  };
  const port = await listen(createListener('main'), env.port, env.host);
  // PORT=0 bound a free port: the hosted origin's redirects home name the one bound.
  env.port = port;
  const shown = env.host === '0.0.0.0' ? 'localhost' : env.host;
  let front: Front | null = null;
  let innerPort: number | null = null;
  if (env.hosted.mode === 'port') {
    const frontFile = new URL('./hosted-front.mjs', import.meta.url);
    // HOSTED_FRONT=off (and `npm run dev`): the main thread serves the hosted port itself; so
    // does a second service of the process (the front's link, lib/front-link.ts, is one per process).
    if (!dev && env.hostedFront && !frontAttached() && existsSync(frontFile)) {
      setHandoffToken(frontSecret);
      // The hosted port in a thread of its own (lib/http/hosted-front.ts); what it does not
      // answer itself it forwards here, to a listener only it can use.
      // Every connection is the front's, from loopback: it caps its clients' connections.
      innerPort = await listen(createListener('inner', { ...limits, perIp: 0, total: 0 }), 0, '127.0.0.1');
      front = await startFront(
        frontFile,
        {
          host: env.host,
          port: env.hosted.port,
          innerPort,
          secret: frontSecret,
          limits,
          connections,
          trustProxy: env.trustProxy,
          staleAfterMs: GUEST_CACHE_STALE_MS,
          storage: env.storage === 's3' && env.s3 ? { kind: 's3', s3: env.s3 } : { kind: 'fs', root: path.join(env.dataDir, 'store') },
        },
        { log, maxDownloadsPerIp: env.maxDownloadsPerIp, rt },
      );
      hostedPort = front.port;
    } else {
      hostedPort = await listen(createListener('hosted'), env.hosted.port, env.host);
    }
    setHostedPort(rt, hostedPort);
    log(`[htmls] hosted sites on http://${shown}:${hostedPort} (a second origin: nothing but /p/${front ? '' : '; served by the main thread'})`);
  } else if (env.hosted.mode === 'sandbox') {
    warn('[htmls] WARNING: HOSTED_PORT=0 without HOSTED_ORIGIN: hosted sites are served on the main origin in a CSP sandbox; fetch, module scripts, localStorage and password-protected assets break. Set HOSTED_ORIGIN or leave HOSTED_PORT unset.');
  } else {
    log(`[htmls] hosted sites on ${env.hosted.origin}`);
  }
  if (env.trustProxy > 0 && (env.host === '0.0.0.0' || env.host === '::')) {
    // Anyone who reaches the port directly can then claim any address in X-Forwarded-For and
    // start every rate limit afresh (issue 22, item 12).
    warn(
      `[htmls] WARNING: TRUST_PROXY is set and HOST=${env.host} listens on every interface: a client that reaches port ${port} without the proxy can forge X-Forwarded-For and escape the rate limits. Set HOST=127.0.0.1 (or the address only the proxy reaches), or firewall the port.`,
    );
  }
  log(`[htmls] listening on http://${shown}:${port} (${dev ? 'development' : 'production'}, ${env.databaseUrl ? 'PostgreSQL' : 'PGlite'}, ${env.storage} storage)`);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const frontClosed = front?.close();
      const closed = servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
      for (const s of servers) s.closeIdleConnections();
      const janitorStopped = stopJanitor(rt);
      const previewsStopped = stopPreviewWorker(rt);
      // Webhook and mail deliveries end (or are given back) while the database is still open.
      const eventsStopped = stopEventWorker(rt);
      stopEpochWatches(rt);
      // Buffered download counts are written before the database closes.
      await flushDownloadCounts(rt);
      for (const s of servers) s.closeAllConnections();
      await Promise.all([...closed, frontClosed]);
      await app?.close().catch(() => {});
      await janitorStopped;
      await previewsStopped;
      await eventsStopped;
      await closeRuntime(rt);
      if (pages) inProcess.pages = false;
      const wasFirst = inProcess.live[0]?.rt === rt;
      inProcess.live = inProcess.live.filter((s) => s.rt !== rt);
      if (wasFirst) {
        // The oldest service still running becomes the process's default.
        uninstallEnv(env);
        const next = inProcess.live[0];
        if (next) {
          installEnv(next.env);
          setDefaultRuntime(next.rt);
        }
      }
    })());
  return { port, hostedPort, front: innerPort === null ? null : { innerPort, hits: frontHits, objects: frontObjects }, rt, close };
}

/** createService on `env`: what `npm start` and the tests' in-process servers run. */
export function startService(env: Env, opts: ServiceOptions = {}): Promise<Service> {
  return createService({ ...opts, env });
}

/** `npm start` (the compiled module) and `npm run dev`: the service on process.env, until a signal. */
/** Closes the service, then ends the process (a failed close is logged, not left unhandled). */
function closeAndExit(service: Service): void {
  service.close().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error('[htmls] shutdown failed:', e);
      process.exit(0);
    },
  );
}

export async function main(opts: { dev?: boolean } = {}): Promise<void> {
  tuneHeap();
  let env: Env;
  try {
    env = getEnv();
  } catch (e) {
    if (!(e instanceof EnvError)) throw e;
    console.error(e.message);
    process.exit(1);
  }
  // Source maps are on for our own compiled server (its stack traces point at the TypeScript);
  // Next's chunks, loaded from here on, need not keep theirs (and their embedded sources, tens
  // of MB) in memory.
  if (!opts.dev) process.setSourceMapsEnabled(false);
  // The handlers are in place before the service starts: a signal that came between its
  // "listening" line and the handlers killed the process by the signal's default action (npm
  // then exits by that signal, not with 0: tests/process-signals.slow.test.ts on a loaded machine).
  let service: Service | undefined;
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Requests in flight get 5 s; then the process goes regardless.
    setTimeout(() => process.exit(0), 5000).unref();
    // A signal during the start: the stop follows once the service is up.
    if (service) closeAndExit(service);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  try {
    service = await startService(env, opts);
  } catch (e) {
    console.error('[htmls] failed to start:', e);
    process.exit(1);
  }
  if (stopping) closeAndExit(service);
}
