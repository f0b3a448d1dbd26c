import type { z } from 'zod';
import type { uploadWarningSchema } from '../contract/responses';
import type { Env } from '../env';
import { isHtmlType } from '../mime';

/**
 * What an upload's HTML and JavaScript say about where the build expects to live, gathered
 * while the files are stored (from the bytes already in memory, never read back), and the
 * warnings that follow for this server's hosting mode. Only what will still break is said:
 * an untouched `vite build` on the shared hosted origin works (its root paths are sent into
 * the project by their Referer), so it gets no warning.
 */
export interface BuildFacts {
  /** A root-absolute reference outside /p/ (`/assets/index-….js`), and the file that has it. */
  rootRef: { file: string; ref: string } | null;
  /** An HTML page that turns the Referer off for its requests. */
  noReferrer: string | null;
  /** A service worker registered at a root path (a redirected worker script is refused). */
  rootWorker: string | null;
  /** Script that changes the address itself (a client-side router). */
  router: string | null;
}

export type UploadWarning = z.output<typeof uploadWarningSchema>;

/** Past this size a file is not looked at (bundles are smaller; the scan is per upload, not per request). */
const SCAN_LIMIT = 4 * 1024 * 1024;
const HTML_ROOT_REF = /\s(?:src|href|poster|data)\s*=\s*["']?(\/(?![/\\])[^"'\s>]*)/gi;
const NO_REFERRER = /<meta\s[^>]*name\s*=\s*["']?referrer["']?[^>]*content\s*=\s*["']?(no-referrer|origin|strict-origin)["'\s>]/i;
const ROOT_WORKER = /serviceWorker\.register\(\s*["'`]\/(?![/\\])/;
const PUSH_STATE = /\bhistory\.(?:pushState|replaceState)\b|\.pushState\(/;

export const newBuildFacts = (): BuildFacts => ({ rootRef: null, noReferrer: null, rootWorker: null, router: null });

const isScript = (contentType: string) => /^(text|application)\/(javascript|x-javascript|ecmascript)/.test(contentType);

/** Notes what one stored file says; `body` is the whole file. */
export function noteBuildFile(facts: BuildFacts, path: string, contentType: string, body: Buffer): void {
  const html = isHtmlType(contentType);
  if ((!html && !isScript(contentType)) || body.length > SCAN_LIMIT) return;
  const text = body.toString('utf8');
  if (html) {
    for (const m of text.matchAll(HTML_ROOT_REF)) {
      if (facts.rootRef || m[1].startsWith('/p/')) continue;
      facts.rootRef = { file: path, ref: m[1] };
    }
    if (!facts.noReferrer && NO_REFERRER.test(text)) facts.noReferrer = path;
  } else if (!facts.router && PUSH_STATE.test(text)) {
    facts.router = path;
  }
  if (!facts.rootWorker && ROOT_WORKER.test(text)) facts.rootWorker = path;
}

/**
 * Where the project just uploaded is served, for the person who uploaded it (the link the
 * console gives them): `template` is lib/http/origin.ts's hostedOriginFor() for their request.
 */
export interface HostedPlace {
  hosted: Env['hosted'];
  /** An origin template (`{slug}`: an origin per project), or null under the sandbox opt-out. */
  template: string | null;
  /** The main listener's port, for "open the console at http://localhost:<port>". */
  port: number;
}

type OwnOrigin = UploadWarning['own_origin'];

/** What to change so that every project has an origin of its own, for this server's setup. */
function ownOriginOf(place: HostedPlace, slug: string): OwnOrigin {
  const name = place.hosted.mode === 'origin' ? new URL(place.hosted.origin).hostname : 'sites.example.com';
  const port = place.hosted.mode === 'port' ? place.hosted.port : null;
  return {
    hosted_origin: `HOSTED_ORIGIN=https://{slug}.${name}`,
    wildcard_dns: `*.${name}`,
    local_console: port === null ? null : `http://localhost:${place.port}/htmls`,
    local_site: port === null ? null : `http://${slug}.localhost:${port}`,
  };
}

/** The same, as the English advice in `message`. */
function ownOriginAdvice(own: OwnOrigin, place: HostedPlace): string {
  const dns = `point a wildcard DNS name (${own.wildcard_dns}) and its TLS certificate at this server and set ${own.hosted_origin} (README: Behind Caddy or nginx)`;
  const local = place.hosted.mode === 'port' ? `; on the server's own machine, open the console at ${own.local_console} instead, where every site has http://<slug>.localhost:${place.hosted.port}` : '';
  return `give each site an origin of its own: ${dns}${local}`;
}

/** The warnings an upload gets on this server, for the project `slug`. */
export function buildWarnings(facts: BuildFacts, place: HostedPlace, slug: string): UploadWarning[] {
  if (place.template?.includes('{slug}') || !facts.rootRef) return [];
  const { file, ref } = facts.rootRef;
  const own = ownOriginOf(place, slug);
  const parts = (about: string) => ({ file: about, root_ref: { file, path: ref }, base: `/p/${slug}/`, own_origin: own });
  const relative = "build it with a relative base (Vite: base: './')";
  if (place.hosted.mode === 'sandbox') {
    return [{ code: 'root_paths', message: `${file} loads ${ref} from the root of the origin, but sites are served under /p/${slug}/ on the console's own origin here (HOSTED_PORT=0): that request will fail. Then ${relative}, or give each site an origin of its own (HOSTED_ORIGIN with {slug}).`, ...parts(file) }];
  }
  const ownOrigin = ownOriginAdvice(own, place);
  const out: UploadWarning[] = [];
  if (facts.noReferrer) {
    out.push({
      code: 'referrer_off',
      message: `${facts.noReferrer} turns the Referer off (<meta name="referrer">) and ${file} loads ${ref} from the root of the origin: on the shared hosted origin a root path is found only by the page that asked for it, so it will fail. Remove that meta tag, ${relative}, or ${ownOrigin}.`,
      ...parts(facts.noReferrer),
    });
  }
  if (facts.rootWorker) {
    out.push({
      code: 'root_service_worker',
      message: `${facts.rootWorker} registers its service worker at a root path: on the shared hosted origin that path is redirected into /p/${slug}/, and browsers refuse a redirected worker script. Register it relative to the page, ${relative}, or ${ownOrigin}.`,
      ...parts(facts.rootWorker),
    });
  }
  if (facts.router) {
    out.push({
      code: 'root_router',
      message: `${facts.router} changes the address itself (a client-side router) and the build expects the root of an origin (${file} loads ${ref}): here sites share one origin and its pages are under /p/${slug}/, so routes written from / will not match (it shows its 404 page). To run it as it is, ${ownOrigin}. Or build with base '/p/${slug}/' and give the router that basename (React Router: createBrowserRouter(routes, { basename: import.meta.env.BASE_URL })).`,
      ...parts(facts.router),
    });
  }
  return out;
}
