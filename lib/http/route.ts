import 'server-only';
import { z } from 'zod';
import { authenticate, type AuthNeed } from '../auth/guards';
import type { Principal } from '../auth/principal';
import { AppError, toErrorBody } from '../errors';
import { assertMigrated, getRuntime, type Runtime } from '../runtime';
import { CLIENT_IP_HEADER, resolveClientIp, runningUnderCustomServer } from './client-ip';
import { isSameOriginRequest } from './origin';

export const JSON_BODY_LIMIT = 1024 * 1024;
/** Routes anyone may call (login, register) read at most this much: nothing they take is larger. */
export const ANONYMOUS_BODY_LIMIT = 4 * 1024;

export interface RouteContext<B, Q> {
  req: Request;
  rt: Runtime;
  params: Record<string, string>;
  body: B;
  query: Q;
  ip: string;
  principal: Principal | null;
}

interface RouteOptions<B extends z.ZodType, Q extends z.ZodType> {
  auth: AuthNeed;
  /** JSON body schema. Without one the body is left for the handler (uploads). */
  body?: B;
  query?: Q;
  maxBodyBytes?: number;
  /** Only /api/health answers while migrations are pending. */
  allowPendingMigrations?: boolean;
}

type Handler<B, Q> = (ctx: RouteContext<B, Q>) => Promise<Response>;
type NextContext = { params: Promise<Record<string, string | string[]>> };

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The one wrapper every /api handler goes through: migrations, authentication, same-origin
 * check, input validation, error mapping. Handlers only do the domain call.
 */
export function route<B extends z.ZodType = z.ZodUndefined, Q extends z.ZodType = z.ZodUndefined>(
  opts: RouteOptions<B, Q>,
  handler: Handler<z.infer<B>, z.infer<Q>>,
) {
  return async (req: Request, context?: NextContext): Promise<Response> => {
    try {
      const rt = await getRuntime();
      const ip = clientIp(rt, req.headers);
      const principal = await admitRequest(rt, opts, { method: req.method, url: req.url, headers: req.headers, ip });
      const rawParams = (context ? await context.params : undefined) ?? {};
      const params = Object.fromEntries(
        Object.entries(rawParams).map(([k, v]) => [k, Array.isArray(v) ? v.join('/') : v]),
      );
      const url = new URL(req.url);
      const query = (opts.query ? parseWith(opts.query, Object.fromEntries(url.searchParams)) : undefined) as z.infer<Q>;
      const body = (
        opts.body ? parseWith(opts.body, await readJson(req, opts.maxBodyBytes ?? (opts.auth === 'none' || opts.auth === 'optional' ? ANONYMOUS_BODY_LIMIT : JSON_BODY_LIMIT))) : undefined
      ) as z.infer<B>;
      return withApiHeaders(
        await handler({ req, rt, params, body, query, ip, principal }),
      );
    } catch (err) {
      return errorResponse(err);
    }
  };
}

/**
 * The steps every API request passes before its input is read, shared by route() and
 * fastRoute(): migrations applied, authentication, and for a cookie-authenticated change the
 * same-origin check. `url` is absolute.
 */
export async function admitRequest(
  rt: Runtime,
  opts: { auth: AuthNeed; allowPendingMigrations?: boolean },
  req: { method: string; url: string; headers: Headers; ip: string },
): Promise<Principal | null> {
  if (!opts.allowPendingMigrations) await assertMigrated(rt);
  const { principal, viaCookie } = await authenticate(rt, req.headers, opts.auth, { ip: req.ip, path: new URL(req.url).pathname });
  if (viaCookie && principal && STATE_CHANGING.has(req.method) && !isSameOriginRequest(rt.env, req.headers, req.url)) {
    throw new AppError('forbidden', 'Cross-site request refused');
  }
  return principal;
}

export function clientIp(rt: Runtime, headers: Headers): string {
  // server.ts sets this header from the socket after dropping any client-sent copy.
  if (runningUnderCustomServer()) return headers.get(CLIENT_IP_HEADER) ?? 'unknown';
  return resolveClientIp(undefined, headers.get('x-forwarded-for'), rt.env.trustProxy);
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
    throw new AppError('invalid_request', `${where}${issue.message}`);
  }
  return parsed.data;
}

/** Reads at most `limit` bytes of JSON; never buffers an unbounded body. */
export async function readJson(req: Request, limit: number): Promise<unknown> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new AppError('invalid_request', 'Send a JSON body with Content-Type: application/json');
  }
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > limit) throw new AppError('body_too_large', `The body is larger than ${limit} bytes`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw new AppError('body_too_large', `The body is larger than ${limit} bytes`);
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) throw new AppError('invalid_request', 'The request body is empty');
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('invalid_request', 'The request body is not valid JSON');
  }
}

export function json(data: unknown, status = 200, headers?: HeadersInit): Response {
  const res = Response.json(data, { status, headers });
  return res;
}

export const noContent = (headers?: HeadersInit) => new Response(null, { status: 204, headers });

export function errorResponse(err: unknown): Response {
  const { status, body, headers } = toErrorBody(err);
  const h = new Headers();
  for (const [k, v] of Object.entries(headers)) for (const item of Array.isArray(v) ? v : [v]) h.append(k, item);
  return withApiHeaders(Response.json(body, { status, headers: h }));
}

function withApiHeaders(res: Response): Response {
  res.headers.set('Cache-Control', 'no-store');
  return res;
}
