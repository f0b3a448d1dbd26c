import 'server-only';
/**
 * The /api operations answered straight from the listener, without Next: the very route modules
 * Next's one-line adapters call (lib/http/api/, keyed by their path under app/api), matched as
 * Next's file-system router matches them (a static segment before `[param]`, before
 * `[...catchAll]`). server.ts uses it when started without pages (`startService(env, { pages:
 * false })`): API tests boot in a fraction of the time, on the same handlers and admission.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { AppError, noSuchApiRoute } from '../errors';
import { apiModules } from './api';
import { failReply, SECURITY_HEADERS } from './fast';
import { jsonErrorReply } from './json-error-reply';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const table = Object.entries(apiModules).map(([key, module]) => ({ segs: key.split('/'), handlers: module as unknown as Partial<Record<string, Handler>> }));

/** 0 a static segment, 1 a parameter, 2 a catch-all: the lowest rank wins, segment by segment. */
const rankOf = (seg: string) => (seg.startsWith('[...') ? 2 : seg.startsWith('[') ? 1 : 0);

function match(path: string[]): { handlers: Partial<Record<string, Handler>>; params: Record<string, string | string[]> } | null {
  let best: { handlers: Partial<Record<string, Handler>>; params: Record<string, string | string[]>; rank: number[] } | null = null;
  for (const { segs, handlers } of table) {
    const params: Record<string, string | string[]> = {};
    const rank: number[] = [];
    let ok = true;
    for (let i = 0; i < segs.length && ok; i++) {
      const seg = segs[i];
      rank.push(rankOf(seg));
      if (seg.startsWith('[...')) {
        const rest = path.slice(i);
        if (rest.length === 0) ok = false;
        else params[seg.slice(4, -1)] = rest;
        if (i !== segs.length - 1) ok = false;
        break;
      }
      if (i >= path.length) ok = false;
      else if (seg.startsWith('[')) params[seg.slice(1, -1)] = path[i];
      else if (seg !== path[i]) ok = false;
      if (ok && i === segs.length - 1 && path.length !== segs.length) ok = false;
    }
    if (!ok) continue;
    if (!best || compare(rank, best.rank) < 0) best = { handlers, params, rank };
  }
  return best;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return b.length - a.length;
}

/** One /api request through its route module, as Next would run it. */
export function dispatchApi(req: IncomingMessage, res: ServerResponse, pathname: string): void {
  const method = req.method ?? 'GET';
  run(req, method, pathname).then(
    (response) => sendResponse(req, res, response, method),
    (err) => failReply(res, err),
  );
}

async function run(req: IncomingMessage, method: string, pathname: string): Promise<Response> {
  const segs = pathname.slice('/api/'.length).split('/').map((s) => decodeURIComponent(s));
  const found = match(segs);
  if (!found) return webReply(jsonErrorReply(noSuchApiRoute()));
  const own = found.handlers[method] ?? (method === 'HEAD' ? found.handlers.GET : undefined);
  if (!own) {
    const allow = METHODS.filter((m) => found.handlers[m]).join(', ');
    if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: allow } });
    return webReply(jsonErrorReply(new AppError('method_not_allowed', `Use ${allow}`, { Allow: allow })));
  }
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
  }
  const body = method === 'GET' || method === 'HEAD' ? undefined : bodyOf(req);
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? pathname}`, { method, headers, body, duplex: 'half' } as RequestInit);
  return own(request, { params: Promise.resolve(found.params) });
}

/** The most of a refused body's rest read and dropped to keep its connection. */
const DRAIN_AT_MOST = 16 * 1024 * 1024;

/**
 * The request body as a web stream read only as the handler pulls: what it leaves unread stays
 * in the socket, for sendResponse to drop or to close with the connection (a stream that read
 * ahead would hold it in memory).
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let bytes = 0;
  req.on('data', (c: Buffer) => void (bytes += c.length));
  req.pause();
  (req as { bytesRead?: number }).bytesRead = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      return new Promise<void>((resolve, reject) => {
        const done = () => {
          req.off('data', onData).off('end', onEnd).off('error', onError);
          resolve();
        };
        const onData = (chunk: Buffer) => {
          req.pause();
          (req as { bytesRead?: number }).bytesRead = bytes;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
          done();
        };
        const onEnd = () => {
          controller.close();
          done();
        };
        const onError = (e: Error) => {
          req.off('data', onData).off('end', onEnd);
          reject(e);
        };
        if (req.readableEnded) return onEnd();
        req.on('data', onData).once('end', onEnd).once('error', onError);
        req.resume();
      });
    },
  });
}

const webReply = (r: { status: number; headers: Record<string, string | string[]>; body?: unknown }) =>
  new Response((r.body ?? null) as string | null, { status: r.status, headers: Object.entries(r.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x] as [string, string]) : [[k, v] as [string, string]])) });

function sendResponse(req: IncomingMessage, res: ServerResponse, response: Response, method: string): void {
  const headers: Record<string, string | string[]> = { ...SECURITY_HEADERS };
  // A refused body's unread rest (a 413, a 401 before the body) would sit before the next
  // request on a kept-alive connection: a small rest is read and dropped once the answer is out
  // (as Node does for a request nobody read), a large one closes the connection instead.
  const rest = req.complete ? 0 : Number(req.headers['content-length'] ?? Infinity) - ((req as { bytesRead?: number }).bytesRead ?? 0);
  if (rest > DRAIN_AT_MOST) headers.connection = 'close';
  else if (!req.complete) res.once('finish', () => req.resume());
  response.headers.forEach((v, k) => {
    if (k !== 'set-cookie') headers[k] = v;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  if (res.headersSent) return void response.body?.cancel();
  res.writeHead(response.status, headers);
  if (method === 'HEAD' || !response.body) {
    void response.body?.cancel();
    res.end();
    return;
  }
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  body.on('error', () => res.destroy());
  res.on('close', () => body.destroy());
  body.pipe(res);
}
