/**
 * Every rule about hosts and origins, in one place: which listener and which host name serve
 * what, where the main origin sends /p/, what the service's own origin is (the same-origin
 * check of cookie-authenticated changes) and what counts as a secure request (the Secure flag
 * of every cookie). server.ts and the route handlers both ask this module; nothing else
 * looks at Host or X-Forwarded-Proto.
 */
import 'server-only';
import type { Env } from '../env';
import { canonicalHostName, hostnameOf } from '../hosting/host-name';
import { DEPLOY_REF, SLUG } from '../hosting/slug-grammar';

export type Listener = 'main' | 'hosted';
/** Web Headers, or a FastRequest (anything with header(name)): both listeners' requests. */
export type HeaderSource = Headers | { header(name: string): string | undefined };

export const headerOf = (h: HeaderSource, name: string): string | undefined =>
  h instanceof Headers ? (h.get(name) ?? undefined) : h.header(name);

/** The scheme the client used: PUBLIC_URL's, else X-Forwarded-Proto behind a trusted proxy. */
export function isSecureRequest(env: Env, headers: HeaderSource): boolean {
  if (env.publicUrl) return env.publicUrl.startsWith('https:');
  return env.trustProxy > 0 && headerOf(headers, 'x-forwarded-proto')?.split(',')[0].trim() === 'https';
}

/** Secure flag for cookies set by hosted pages (the unlock cookie). */
export function isSecureHostedRequest(env: Env, headers: HeaderSource): boolean {
  const h = env.hosted;
  if (h.mode === 'origin' || h.mode === 'per-site') return h.origin.startsWith('https:');
  return isSecureRequest(env, headers);
}

/** The service's own origin: PUBLIC_URL, else what the request says it reached. */
export function ownOrigin(env: Env, headers: HeaderSource, fallbackUrl: string): string {
  if (env.publicUrl) return env.publicUrl;
  const host = headerOf(headers, 'host');
  // The listeners speak plain HTTP: the scheme is the one secure-request rule's answer.
  return host ? `${isSecureRequest(env, headers) ? 'https' : 'http'}://${host}` : new URL(fallbackUrl).origin;
}

/**
 * Cookie-authenticated state changes must come from our own pages: the Origin header must be
 * ours, or, without one, Sec-Fetch-Site must say same-origin. A hosted page is another origin
 * (another port or host), so its requests fail this even when the browser sends the cookie.
 */
export function isSameOriginRequest(env: Env, headers: HeaderSource, url: string): boolean {
  const origin = headerOf(headers, 'origin');
  if (origin) return origin === ownOrigin(env, headers, url);
  return headerOf(headers, 'sec-fetch-site') === 'same-origin';
}

/**
 * A browser request from another origin: an Origin header that is not ours, or a
 * Sec-Fetch-Site that is not same-origin. Routes that change state without a session
 * (logout) refuse these; clients that send neither header (curl, scripts) are not browsers.
 */
export function isForeignBrowserRequest(env: Env, headers: HeaderSource, url: string): boolean {
  const origin = headerOf(headers, 'origin');
  if (origin) return origin !== ownOrigin(env, headers, url);
  const site = headerOf(headers, 'sec-fetch-site');
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}

/** What a request gets, decided from the listener, the Host header and the path alone. */
export type HostDecision =
  | { kind: 'app' }
  /** `site`: a project on an origin of its own, served at that origin's root. */
  | { kind: 'hosted'; sandbox: boolean; site?: string }
  /** `byReferer`: the target depends only on the Referer (a root asset of a project's page): cacheable per Referer. */
  | { kind: 'redirect'; status: 302 | 307; location: string; byReferer?: true }
  | { kind: 'not-found' };

export interface HostRequest {
  method: string;
  url: string;
  header(name: string): string | undefined;
}

const SLUG_OF_URL = new RegExp(`^/p/(${SLUG})(?:@${DEPLOY_REF})?(?:[/?]|$)`);

const isHostedPath = (url: string) => url === '/p' || url.startsWith('/p/') || url.startsWith('/p?');

/** The slug a /p/ URL names (`/p/<slug>` or a preview `/p/<slug>@<deploy>`), or null. */
export function slugOfUrl(url: string): string | null {
  const m = SLUG_OF_URL.exec(url);
  return m ? m[1] : null;
}

/**
 * `<slug>.localhost` (any port): browsers resolve every `*.localhost` name to loopback
 * themselves (RFC 6761; Chromium and Firefox without asking DNS), so on this machine every
 * project can have an origin of its own on the hosted port with nothing configured.
 */
const LOCAL_SITE = new RegExp(`^(${SLUG})\\.localhost(?::\\d{1,5})?$`);

/** The project a Host header names as `<slug>.localhost[:port]`, or null. */
export function localSiteOf(host: string | undefined): string | null {
  return host ? (LOCAL_SITE.exec(host.toLowerCase())?.[1] ?? null) : null;
}

/** A host name only this machine reaches: localhost, `*.localhost`, 127.0.0.0/8 or [::1]. */
const isLoopbackName = (name: string) => name === 'localhost' || name.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(name) || name === '[::1]';

/** HOST values whose listeners answer on 127.0.0.1 or ::1, where a `*.localhost` name leads. */
const LOOPBACK_LISTEN = new Set(['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost']);

/**
 * Where hosted pages are, as an origin template (`{slug}` is replaced per project), for a
 * request that reached the main origin at `host`: HOSTED_ORIGIN; else the second listener's
 * port — with an origin per project, `http://{slug}.localhost:<port>`, when the service is
 * reached by a loopback name (the default setup, tried on one's own machine: a build made for
 * the root of an origin, a client-side router's included, works as it is), otherwise on the
 * same host name, shared by every project. Null under the sandbox opt-out (/p/ stays on the
 * main origin).
 */
export function hostedOriginFor(env: Env, hostedPort: number | null, host: string | undefined, secure: boolean): string | null {
  const h = env.hosted;
  if (h.mode === 'origin' || h.mode === 'per-site') return h.origin;
  if (h.mode === 'sandbox' || !hostedPort) return null;
  const name = env.publicUrl ? new URL(env.publicUrl).hostname : (hostnameOf(host) ?? 'localhost');
  const scheme = secure ? 'https' : 'http';
  if (isLoopbackName(name) && LOOPBACK_LISTEN.has(env.host)) return `${scheme}://{slug}.localhost:${hostedPort}`;
  return `${scheme}://${name}:${hostedPort}`;
}

/** The absolute URL of a path of a project on its hosted origin. */
export const siteOrigin = (template: string, slug: string) => template.replace('{slug}', slug);

/** Per HOSTED_ORIGIN (one per process): what every request would otherwise rebuild. */
const parsedOrigins = new Map<string, { host: string; defaultPort: string; pattern: RegExp | null }>();

function parsedOrigin(origin: string) {
  let p = parsedOrigins.get(origin);
  if (!p) {
    const u = new URL(origin.replace('{slug}', 'x'));
    const [before, after] = origin.replace(/^https?:\/\//, '').split('{slug}').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    p = {
      host: origin.includes('{slug}') ? '' : u.host,
      defaultPort: u.protocol === 'https:' ? ':443' : ':80',
      pattern: origin.includes('{slug}') ? new RegExp(`^${before}(${SLUG})${after}$`) : null,
    };
    parsedOrigins.set(origin, p);
  }
  return p;
}

/** The slug in a Host header that matches a per-site HOSTED_ORIGIN, or null. */
function perSiteSlug(origin: string, host: string | undefined): string | null {
  if (!host) return null;
  const { defaultPort, pattern } = parsedOrigin(origin);
  const lower = host.toLowerCase();
  const given = lower.endsWith(defaultPort) ? lower.slice(0, -defaultPort.length) : lower;
  return pattern?.exec(given)?.[1] ?? null;
}

const REFERER_SITE = new RegExp(`^/p/(${SLUG}(?:@${DEPLOY_REF})?)(?:/|$)`);

/**
 * On a shared hosted origin, the project a request came from: `/p/<slug>` (or a preview's
 * `/p/<slug>@<deploy>`) when its Referer is a page of that project on this very origin.
 */
export function refererSite(req: HostRequest): string | null {
  const referer = req.header('referer');
  const host = req.header('host');
  if (!referer || !host) return null;
  try {
    const from = new URL(referer);
    if (new URL(`${from.protocol}//${host}`).host !== from.host) return null;
    return REFERER_SITE.exec(from.pathname)?.[0].replace(/\/$/, '') ?? null;
  } catch {
    return null;
  }
}

/**
 * A path outside /p/ on a shared hosted origin. A build made for the root of an origin (an
 * untouched `vite build`: `/assets/index-….js`, `/icons.svg`) asks for it from one of its own
 * pages: it is sent into that project (302, kept by the browser per Referer for 5 minutes, so an
 * untouched Vite page does not pay a round trip per asset on every view). Without
 * such a Referer the root leads home and anything else is 404: no project owns it.
 */
function outsideSites(req: HostRequest, home: () => HostDecision): HostDecision {
  const from = (req.method === 'GET' || req.method === 'HEAD') && req.url.startsWith('/') ? refererSite(req) : null;
  if (from) return { kind: 'redirect', status: 302, location: from + req.url, byReferer: true };
  return req.url === '/' ? home() : { kind: 'not-found' };
}

/**
 * Where `/p/<slug>…` goes on a per-site origin: the same path below the root (`/p/blog/a?x` →
 * `/a?x`), except previews (`/p/<slug>@<deploy>/`) and any method but GET and HEAD (the unlock
 * form's and the language picker's POSTs), which keep their path. Leading slashes collapse, so `/p/blog//evil.example` stays on this origin.
 */
function rootPath(url: string, slug: string, method: string): string {
  const own = `/p/${slug}`;
  if (!url.startsWith(own) || url[own.length] === '@' || (method !== 'GET' && method !== 'HEAD')) return url;
  const rest = url.slice(own.length);
  return `/${rest.replace(/^[/\\]+/, '')}`;
}

/**
 * A request on a project's own origin (`hostSlug`: a per-site HOSTED_ORIGIN's host name, or
 * `<slug>.localhost` on the hosted port): every path is the project's, only its own /p/<slug>
 * prefix is special — it leads to the root, except a preview's and a POST (the unlock form's, the
 * language picker's).
 */
function onOwnOrigin(req: HostRequest, hostSlug: string): HostDecision {
  const urlSlug = slugOfUrl(req.url);
  const path = urlSlug === hostSlug ? rootPath(req.url, hostSlug, req.method) : req.url;
  if (path !== req.url) return { kind: 'redirect', status: 302, location: path };
  return urlSlug === hostSlug && req.url[`/p/${hostSlug}`.length] === '@' ? { kind: 'hosted', sandbox: false } : { kind: 'hosted', sandbox: false, site: hostSlug };
}

/** /p/<slug>… sent from the main origin to the project's own origin (`template` has {slug}), at its root. */
function toOwnOrigin(template: string, req: HostRequest, status: 302 | 307): HostDecision {
  const urlSlug = slugOfUrl(req.url);
  return urlSlug ? { kind: 'redirect', status, location: siteOrigin(template, urlSlug) + rootPath(req.url, urlSlug, req.method) } : { kind: 'not-found' };
}

/**
 * The one routing rule of both listeners. `domains` (custom domain → slug, lib/hosting/domains.ts)
 * comes first: such a host serves its project at its root, whatever the path. The hosted listener and a hosted host name serve
 * /p/ and nothing else (a request from one of its pages for a root path is sent into that
 * project); the main origin sends /p/ there (302, or 307 so a POST stays a POST), except
 * under the sandbox opt-out where it serves /p/ itself. A per-site host name, and
 * `<slug>.localhost` on the hosted listener, serve their project at their root.
 */
export function decideHost(env: Env, hostedPort: number | null, listener: Listener, req: HostRequest, domains?: ReadonlyMap<string, string>): HostDecision {
  const host = req.header('host');
  // A project's custom domain, before anything else: the project at the root, on either listener.
  if (domains && domains.size > 0) {
    const custom = domains.get(canonicalHostName(host) ?? '');
    if (custom !== undefined) return onOwnOrigin(req, custom);
  }
  const hostedPath = isHostedPath(req.url);
  const status = req.method === 'GET' || req.method === 'HEAD' ? 302 : 307;
  // The hosted origin's root leads home, to the service's own origin when it is known.
  const home = (): HostDecision => {
    if (env.publicUrl) return { kind: 'redirect', status: 302, location: `${env.publicUrl}/` };
    const name = hostnameOf(host);
    return env.hosted.mode === 'port' && env.port && name ? { kind: 'redirect', status: 302, location: `${isSecureRequest(env, req) ? 'https' : 'http'}://${name}:${env.port}/` } : { kind: 'not-found' };
  };
  if (listener === 'hosted') {
    const own = localSiteOf(host);
    if (own) return onOwnOrigin(req, own);
    return hostedPath ? { kind: 'hosted', sandbox: false } : outsideSites(req, home);
  }
  const h = env.hosted;
  if (h.mode === 'sandbox') return hostedPath ? { kind: 'hosted', sandbox: true } : { kind: 'app' };
  if (h.mode === 'origin') {
    if (host?.toLowerCase() === parsedOrigin(h.origin).host) return hostedPath ? { kind: 'hosted', sandbox: false } : outsideSites(req, home);
    return hostedPath ? { kind: 'redirect', status, location: h.origin + req.url } : { kind: 'app' };
  }
  if (h.mode === 'per-site') {
    const hostSlug = perSiteSlug(h.origin, host);
    if (hostSlug !== null) return onOwnOrigin(req, hostSlug);
    return hostedPath ? toOwnOrigin(h.origin, req, status) : { kind: 'app' };
  }
  if (!hostedPath) return { kind: 'app' };
  const origin = hostedOriginFor(env, hostedPort, host, isSecureRequest(env, req));
  if (!origin) return { kind: 'not-found' };
  return origin.includes('{slug}') ? toOwnOrigin(origin, req, status) : { kind: 'redirect', status, location: origin + req.url };
}
