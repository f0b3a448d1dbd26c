import { createHash, randomInt } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { baseUrl } from './file-server';
import { TEST_ADMIN_TOKEN } from './server';

export interface CallOptions {
  body?: unknown;
  /** Raw body, sent as is (with its own content type in headers). */
  raw?: BodyInit;
  token?: string;
  cookie?: string;
  headers?: Record<string, string>;
  /** Client address as the test server (TRUST_PROXY=1) will see it. */
  ip?: string;
  base?: string;
  redirect?: RequestRedirect;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  json: T;
  text: string;
  cookies: string[];
}

export { baseUrl, hostedUrl } from './file-server';

/** A random client address, so each test has its own rate-limit counters. */
export const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

export async function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<CallResult<T>> {
  const base = opts.base ?? baseUrl();
  const headers: Record<string, string> = { 'X-Forwarded-For': opts.ip ?? randomIp(), ...opts.headers };
  let body: BodyInit | undefined = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] ??= 'application/json';
  }
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  if (opts.cookie) {
    headers.Cookie = opts.cookie;
    headers.Origin ??= base;
    const accounts = consoleAccountsOf(opts.cookie);
    if (accounts && !Object.keys(headers).some((k) => k.toLowerCase() === 'x-htmls-account')) headers['X-Htmls-Account'] = accounts;
  }
  const send = () => fetch(base + path, { method, headers, body, redirect: opts.redirect ?? 'manual' });
  const res = await send().catch((e) => {
    if (!closedBeforeAnswer(method, body, e)) throw e;
    return send();
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  const cookies = res.headers.getSetCookie();
  if (res.ok && /^\/api\/auth\/(login|register|token)$/.test(path)) rememberConsoleSession(cookies, json);
  return { status: res.status, headers: res.headers, json, text, cookies };
}

/**
 * Whether `e` is a keep-alive race lost by an idempotent request with a body that can be sent
 * again: the server closed the idle connection (its 5 s keepAliveTimeout) as the next request
 * went out on it, which fails as ECONNRESET or EPIPE before any answer. On a loaded 2-core
 * machine the server's timer can fire before it reads a request already waiting (seen: a
 * second 48 MiB part PUT right after the first). Browsers send such a request again on a new
 * connection, as RFC 9112 §9.3.1 allows; so does `call`, once.
 */
function closedBeforeAnswer(method: string, body: BodyInit | undefined, e: unknown): boolean {
  const code = (e as { cause?: { code?: string } })?.cause?.code;
  const resendable = body === undefined || typeof body === 'string' || body instanceof Uint8Array;
  return ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'].includes(method) && resendable && ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'].includes(code ?? '');
}

/**
 * What a console does (lib/client/console-session.ts): it remembers whom a sign-in opened a
 * cookie session for and names that account in X-Htmls-Account beside the cookie. `call` does
 * the same for every session cookie a sign-in through it returned, so a test that sends such
 * a cookie speaks as the console; a cookie it did not see issued goes without the header.
 */
const consoleAccounts = new Map<string, string>();

function rememberConsoleSession(setCookies: string[], json: any) {
  for (const c of setCookies) {
    const pair = c.split(';')[0];
    if (pair.startsWith('htmls_user_session=') && json?.user?.id) consoleAccounts.set(pair, json.user.id);
    if (pair.startsWith('htmls_admin_session=')) consoleAccounts.set(pair, 'admin');
  }
}

function consoleAccountsOf(cookie: string): string | undefined {
  const names = cookie.split(';').map((p) => consoleAccounts.get(p.trim())).filter((n): n is string => n !== undefined);
  return names.length ? [...new Set(names)].join(' ') : undefined;
}

/** `name=value` of a Set-Cookie, for sending back. */
export function cookieFrom(setCookies: string[], name: string): string {
  const c = setCookies.find((s) => s.startsWith(`${name}=`));
  if (!c) throw new Error(`no ${name} cookie in ${JSON.stringify(setCookies)}`);
  return c.split(';')[0];
}

export async function adminSession(): Promise<{ token: string; cookie: string }> {
  const r = await call('POST', '/api/auth/login', { body: { token: TEST_ADMIN_TOKEN } });
  if (r.status !== 200) throw new Error(`admin login failed: ${r.status} ${r.text}`);
  return { token: r.json.token, cookie: cookieFrom(r.cookies, 'htmls_admin_session') };
}

/**
 * A request with its own Host header (fetch always sends the URL's host): how a browser
 * reaches `abc.localhost:PORT` or a reverse proxy forwards `usercontent.example.com`.
 */
export function callAs(host: string, method: string, url: string, opts: { headers?: Record<string, string>; body?: string } = {}): Promise<CallResult> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { Host: host, 'X-Forwarded-For': randomIp(), ...opts.headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) for (const x of Array.isArray(v) ? v : [v ?? '']) headers.append(k, x);
        let json: any = null;
        try {
          json = text ? JSON.parse(text) : null;
        } catch {
          json = null;
        }
        resolve({ status: res.statusCode!, headers, json, text, cookies: headers.getSetCookie() });
      });
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The SHA-256 of a download, streamed (never held whole). */
export async function downloadHash(url: string): Promise<{ status: number; hash: string; bytes: number }> {
  const res = await fetch(url);
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { status: res.status, hash: hash.digest('hex'), bytes };
}
