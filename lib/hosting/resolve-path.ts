import 'server-only';
import { encodeUrlPath } from '../paths/relative-path';
import type { Site, SiteFile } from './site-cache';

/** What a path of a site answers, the way Netlify and Cloudflare Pages resolve it. */
export type Resolution =
  | { kind: 'file'; file: SiteFile; status: 200 | 404; baseHref?: string }
  | { kind: 'redirect'; status: 301 | 302 | 307 | 308; location: string }
  | { kind: 'listing' }
  | { kind: 'not-found' };

/**
 * The one sanitiser of a decoded site path, for a direct request and for every path a rule or
 * a fallback looks up: NFC, and nothing that could name another place than it says — no `.`
 * or `..` segment, no empty segment (a trailing `/` aside), no backslash, no NUL. Null: no file
 * of any site has that path, and no rule may use it.
 */
export function cleanSitePath(path: string): string | null {
  if (path.includes('\\') || path.includes('\0')) return null;
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    if (s === '.' || s === '..' || (s === '' && i !== segments.length - 1)) return null;
  }
  return path.normalize('NFC');
}

/**
 * Dot-segments (`.git/config`, `.env`) are not served unless the project allows them; only
 * `.well-known/` is (ACME, security.txt, app links).
 */
export function isHiddenPath(path: string): boolean {
  return path.split('/').some((segment, i) => segment.startsWith('.') && !(i === 0 && segment === '.well-known'));
}

const ROOT_INDEX = 'index.html';

const hasExtension = (path: string) => /\.[^/.]+$/.test(path.slice(path.lastIndexOf('/') + 1));

/**
 * `prefix` is `/p/<slug>` (or `/p/<slug>@<deploy>` for a preview, or '' for a project at the
 * root of its own origin); `rest` is the decoded path after it (undefined for `/p/<slug>`
 * itself). In order: the site's root (index.html served there, another index file a 302 to
 * it, SPEC's entry redirect), the file itself, clean URLs (`about` → about.html, `docs/` → docs/index.html,
 * `docs` → 301 `docs/`), the `_redirects` rules where no file exists (a forced one even where
 * one does), the SPA fallback (extensionless paths serve the index file), the project's own
 * 404.html, and a generated listing for a project without HTML. A path that fails
 * cleanSitePath() reaches no file, no rule and no fallback but the 404 page.
 */
export function resolvePath(site: Site, prefix: string, rest: string | undefined, query: string): Resolution {
  const visible = (path: string) => {
    const file = site.files.get(path);
    return file && (site.allowDotfiles || !isHiddenPath(path)) ? file : undefined;
  };
  const index = site.indexPath && visible(site.indexPath) ? site.indexPath : null;
  // index.html at the root is served at the site's root, the URL every link hands out, so a
  // client-side router starts on `/`; its own name redirects there (Netlify's pretty URLs).
  const atRoot = index === ROOT_INDEX;
  // Served away from its folder, these pages get a base so their relative URLs still resolve.
  const rootBase = (file: string) => `${prefix}/${encodeUrlPath(file.slice(0, file.lastIndexOf('/') + 1))}`;
  const custom404 = (): Resolution => {
    const page = visible('404.html');
    return page ? { kind: 'file', file: page, status: 404, baseHref: rootBase('404.html') } : { kind: 'not-found' };
  };
  if (rest === undefined) return { kind: 'redirect', status: 302, location: `${prefix}/${index && !atRoot ? encodeUrlPath(index) : ''}${query}` };
  if (rest === '') {
    const rule = ruled(site, prefix, '', atRoot, query, visible);
    if (atRoot && !rule) return { kind: 'file', file: site.files.get(index)!, status: 200 };
    if (rule) return rule.kind === 'not-found' ? custom404() : rule;
    return index ? { kind: 'redirect', status: 302, location: `${prefix}/${encodeUrlPath(index)}${query}` } : { kind: 'listing' };
  }
  const path = cleanSitePath(rest);
  if (path === null) return custom404();
  if (atRoot && path === ROOT_INDEX) return { kind: 'redirect', status: 301, location: `${prefix}/${query}` };
  const found = lookupFile(path, visible);
  if (found) {
    // A forced rule (`!`) still applies where a file exists; any other only where none does.
    const forced = site.rules ? ruled(site, prefix, path, true, query, visible) : null;
    if (forced) return forced.kind === 'not-found' ? custom404() : forced;
    if (found.kind === 'dir') return { kind: 'redirect', status: 301, location: `${prefix}/${encodeUrlPath(path)}/${query}` };
    return { kind: 'file', file: found.file, status: 200 };
  }
  const rule = site.rules ? ruled(site, prefix, path, false, query, visible) : null;
  if (rule) return rule.kind === 'not-found' ? custom404() : rule;
  if (site.spa && index && !hasExtension(path)) {
    return { kind: 'file', file: site.files.get(index)!, status: 200, baseHref: rootBase(index) };
  }
  return custom404();
}

type Visible = (path: string) => SiteFile | undefined;

/**
 * The file a clean path names: itself, its folder's index (`docs/`), its clean URL (`about` →
 * about.html), or a folder with an index (`docs`, which the caller redirects to `docs/`).
 */
function lookupFile(path: string, visible: Visible): { kind: 'file'; file: SiteFile } | { kind: 'dir' } | null {
  const exact = visible(path);
  if (exact) return { kind: 'file', file: exact };
  if (path === '' || path.endsWith('/')) {
    const dirIndex = visible(`${path}index.html`) ?? visible(`${path}index.htm`);
    return dirIndex ? { kind: 'file', file: dirIndex } : null;
  }
  const page = visible(`${path}.html`) ?? visible(`${path}.htm`);
  if (page) return { kind: 'file', file: page };
  return visible(`${path}/index.html`) ?? visible(`${path}/index.htm`) ? { kind: 'dir' } : null;
}

/**
 * The first `_redirects` rule for `path` (clean, decoded, relative): a redirect with the query
 * kept (unless the target has its own), or a rewrite — the target's file under the requested
 * URL, its path through the same sanitiser and lookup as a direct request (never another
 * rule); a rewrite to nothing is a miss ('not-found'). Null: no rule applies.
 */
function ruled(site: Site, prefix: string, path: string, exists: boolean, query: string, visible: Visible): Resolution | null {
  const hit = site.rules?.redirect(`/${path}`, exists);
  if (!hit) return null;
  const { rule } = hit;
  if (rule.status !== 200 && rule.status !== 404) {
    const target = rule.absolute ? hit.target : `${prefix}${hit.target}`;
    return { kind: 'redirect', status: rule.status, location: query && !target.includes('?') ? `${target}${query}` : target };
  }
  const clean = cleanSitePath(hit.targetPath.slice(1));
  const found = clean === null ? null : lookupFile(clean, visible);
  if (!found || found.kind !== 'file') return { kind: 'not-found' };
  const file = found.file;
  return { kind: 'file', file, status: rule.status, baseHref: `${prefix}/${encodeUrlPath(file.path.slice(0, file.path.lastIndexOf('/') + 1))}` };
}
