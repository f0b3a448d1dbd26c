import 'server-only';
import { auditSubject, recordAudit } from '../events/audit';
import { z } from 'zod';
import { authenticate, bearerToken, type AuthNeed } from './guards';
import { UPLOAD_TOKEN_PREFIX } from '../contract/requests';
import type { Operation } from '../contract/operations';
import type { OperationScope } from '../contract/scopes';
import type { Principal } from '../auth/principal';
import { noteSessionUse } from '../auth/session-use';
import { AppError, toErrorBody } from '../errors';
import { assertMigrated, getRuntime, type Runtime } from '../runtime';
import { requestContext } from './request-context';
import { isForeignBrowserRequest, isSameOriginRequest, type HeaderSource } from './origin';
import { readLimited } from './read-body';

const JSON_BODY_LIMIT = 1024 * 1024;
/** Routes anyone may call (login, register) read at most this much: nothing they take is larger. */
const ANONYMOUS_BODY_LIMIT = 4 * 1024;

export interface RouteContext<B, Q, P extends Principal | null = Principal | null> {
  req: Request;
  rt: Runtime;
  params: Record<string, string>;
  body: B;
  query: Q;
  ip: string;
  /** Typed by the operation's auth: present wherever it needs a session (PrincipalInput). */
  principal: P;
  /** A guest's upload token, on the operations that take one (`uploadToken`); principal is then null. */
  uploadToken?: string;
  /**
   * Names what an audited operation acted on when its path does not (the user or project it
   * made): the audit entry takes it from the handler, never by re-reading the answer.
   */
  auditAs: (target: string) => void;
}

/** What the handler gets as `body`: the parsed JSON, the raw JSON when the handler checks it, or nothing. */
export type BodyInput<O extends Operation> = O extends { body: infer S extends z.ZodType }
  ? O extends { bodyCheckedBy: 'handler' }
    ? unknown
    : z.infer<S>
  : undefined;
export type QueryInput<O extends Operation> = O extends { query: infer S extends z.ZodType } ? z.infer<S> : undefined;

/**
 * Who the handler gets: wherever the operation needs a session, admission has refused the
 * request without one, so the handler's principal is never null; an operation open to anyone,
 * or to a guest's upload token (then principal is null and uploadToken set), may have none.
 */
export type PrincipalInput<O extends Operation> = O extends { uploadToken: true } ? Principal | null : O['auth'] extends 'none' | 'optional' ? Principal | null : Principal;

type Handler<O extends Operation> = (ctx: RouteContext<BodyInput<O>, QueryInput<O>, PrincipalInput<O>>) => Promise<Response>;
type NextContext = { params: Promise<Record<string, string | string[]>> };

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The JSON body limit of an operation. */
const bodyLimitOf = (op: Operation) => op.maxBodyBytes ?? (op.auth === 'none' || op.auth === 'optional' ? ANONYMOUS_BODY_LIMIT : JSON_BODY_LIMIT);

/**
 * The one wrapper every /api handler goes through: migrations, authentication, same-origin
 * check, input validation, error mapping — each as its operation (lib/contract/operations.ts)
 * defines it. Handlers only do the domain call.
 */
export function route<O extends Operation>(op: O, handler: Handler<O>) {
  return async (req: Request, context?: NextContext): Promise<Response> => {
    try {
      const rt = await getRuntime();
      const ip = clientIp();
      const rawParams = (context ? await context.params : undefined) ?? {};
      const params = Object.fromEntries(
        Object.entries(rawParams).map(([k, v]) => [k, Array.isArray(v) ? v.join('/') : v]),
      );
      const uploadToken = uploadTokenFor(op, req.headers);
      const principal = uploadToken ? (await assertMigrated(rt), null) : await admitRequest(rt, op, { method: req.method, url: req.url, headers: req.headers, ip }, params);
      const url = new URL(req.url);
      const query = (op.query ? parseWith(op.query, Object.fromEntries(url.searchParams)) : undefined) as QueryInput<O>;
      let body: unknown;
      if (op.body) {
        const raw = op.optionalBody && isEmptyBody(req) ? {} : await readJson(req, bodyLimitOf(op));
        body = op.bodyCheckedBy === 'handler' ? raw : parseWith(op.body, raw);
      }
      const subject = op.audit ? await auditSubject(rt, op.audit, params) : null;
      // authenticate() has refused a request without a session where the operation needs one:
      // checked again here, so the handler's non-null principal is a fact, not a cast.
      if (principal === null && !uploadToken && op.auth !== 'none' && op.auth !== 'optional') throw new AppError('unauthenticated', 'Sign in first');
      let named: string | undefined;
      const auditAs = (target: string) => void (named = target);
      const res = await handler({ req, rt, params, body: body as BodyInput<O>, query, ip, principal: principal as PrincipalInput<O>, uploadToken, auditAs });
      if (op.audit && res.status < 300) await recordAudit(rt, principal, op.audit, subject ?? named ?? auditTarget(params), ip);
      return withApiHeaders(res);
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
  opts: {
    auth: AuthNeed;
    scope: OperationScope;
    allowPendingMigrations?: boolean;
    refuseCrossSite?: boolean;
    resolveSession?: (rt: Runtime, token: string) => Promise<Principal | null>;
  },
  req: { method: string; url: string; headers: HeaderSource; ip: string },
  params: Record<string, string> = {},
): Promise<Principal | null> {
  if (!opts.allowPendingMigrations) await assertMigrated(rt);
  if (opts.refuseCrossSite && isForeignBrowserRequest(rt.env, req.headers, req.url)) throw new AppError('forbidden', 'Cross-site request refused');
  const { principal, viaCookie } = await authenticate(rt, req.headers, opts.auth, { ip: req.ip, url: req.url }, { scope: opts.scope, params }, opts.resolveSession);
  if (viaCookie && principal && STATE_CHANGING.has(req.method) && !isSameOriginRequest(rt.env, req.headers, req.url)) {
    throw new AppError('forbidden', 'Cross-site request refused');
  }
  await noteSessionUse(rt, principal, req.ip);
  return principal;
}

/**
 * The guest upload token (htmls_upl_…) a request brings as its Bearer, when its operation takes
 * one: then no other authentication runs, and the handler resolves the token against the group
 * it names (lib/shares/uploader.ts). On any other operation the token is just a failed Bearer.
 */
export function uploadTokenFor(op: { uploadToken?: true }, headers: HeaderSource): string | undefined {
  if (!op.uploadToken) return undefined;
  const token = bearerToken(headers);
  return token && token.startsWith(UPLOAD_TOKEN_PREFIX) ? token : undefined;
}

/** The listener resolved it from the socket (lib/http/request-context.ts): Next runs only inside server.ts. */
const clientIp = (): string => requestContext()?.ip ?? 'unknown';

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
    throw new AppError('invalid_request', `${where}${issue.message}`);
  }
  return parsed.data;
}

/** No body at all: no Content-Type and no bytes announced (an optional body left out). */
const isEmptyBody = (req: Request) => !req.headers.get('content-type') && (req.headers.get('content-length') ?? '0') === '0' && !req.headers.get('transfer-encoding');

/** Reads at most `limit` bytes of JSON; never buffers an unbounded body. */
export async function readJson(req: Request, limit: number): Promise<unknown> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new AppError('invalid_request', 'Send a JSON body with Content-Type: application/json');
  }
  const text = await readLimited(req.body, req.headers.get('content-length'), limit);
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

/** What an audited action acted on, from its path: the route's slug (and deploy) or id. */
function auditTarget(params: Record<string, string>): string {
  if (params.slug) return params.id ? `${params.slug} @ ${params.id}` : params.slug;
  return params.id ?? '';
}
