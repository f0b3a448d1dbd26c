import { endpointPath, endpoints, type EndpointName } from '../contract/endpoints';
import { CONSOLE_ACCOUNT_HEADER } from '../contract/console-account';
import type { BodyOf, ResponseOf } from '../contract/operations';
import { consoleAccountHeader, forgetConsoleSessions, rememberConsoleSession } from './console-session';
import { serverCode, type ApiErrorCode } from './error-codes';

/** Browser and CLI side of the contract: one fetch wrapper that turns error bodies into ApiError. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export interface ApiOptions {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  baseUrl?: string;
  token?: string;
}

export async function api<T>(path: string, opts: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  else Object.assign(headers, consoleHeaders());
  let res: Response;
  try {
    res = await fetch((opts.baseUrl ?? '') + path, {
      method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
      credentials: 'same-origin',
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, 'network_error', 'Could not reach the server. Check your connection and try again.');
  }
  if (res.status === 204) return undefined as T;
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const retry = Number(res.headers.get('Retry-After')) || undefined;
    throw new ApiError(res.status, serverCode(data?.code), data?.error ?? `Request failed (${res.status})`, retry);
  }
  return data as T;
}

export interface OperationOptions<N extends EndpointName> extends Omit<ApiOptions, 'method' | 'body'> {
  /** The `{param}`s of the operation's path. */
  params?: Record<string, string>;
  body?: BodyOf<N>;
}

/**
 * One operation of the contract by name (lib/contract/endpoints.ts): its method and path from
 * the one table, its body and answer typed by its schemas (lib/contract/operations.ts).
 */
/** Operations whose answer may open a cookie session. */
const SIGN_INS: ReadonlySet<EndpointName> = new Set(['login', 'register', 'loginSecondFactor', 'totpEnable', 'passkeyLogin']);

export async function callOperation<N extends EndpointName>(name: N, opts: OperationOptions<N> = {}): Promise<ResponseOf<N>> {
  const { params, ...rest } = opts;
  const signsOut = name === 'logout' || name === 'deleteOwnAccount';
  try {
    const r = await api<ResponseOf<N>>(endpointPath(name, params), { ...rest, method: endpoints[name].method });
    // A cookie session the server just opened: this console vouches for it from now on.
    // (A sign-in that waits for its second factor has no session yet: no `token` in its answer.)
    if (!opts.token && SIGN_INS.has(name) && r && typeof r === 'object' && 'token' in r) {
      const user = (r as { user?: { id: string } | null }).user;
      rememberConsoleSession(user ? 'member' : 'admin', user?.id ?? null);
    }
    if (signsOut) forgetConsoleSessions();
    return r;
  } catch (e) {
    if (name === 'logout') forgetConsoleSessions();
    throw e;
  }
}

/** X-Htmls-Account for a cookie-authenticated call of a console (lib/client/console-session.ts). */
export function consoleHeaders(): Record<string, string> {
  const value = consoleAccountHeader();
  return value ? { [CONSOLE_ACCOUNT_HEADER]: value } : {};
}
