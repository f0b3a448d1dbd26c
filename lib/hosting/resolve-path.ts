import 'server-only';
import { encodeUrlPath } from '../paths/relative-path';
import type { Site, SiteFile } from './site-cache';

/** What a path of a site answers, the way Netlify and Cloudflare Pages resolve it. */
export type Resolution =
  | { kind: 'file'; file: SiteFile; status: 200 | 404; baseHref?: string }
  | { kind: 'redirect'; status: 301 | 302; location: string }
  | { kind: 'listing' }
  | { kind: 'not-found' };

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
 * `docs` → 301 `docs/`), the SPA fallback (extensionless paths serve the index file), the
 * project's own 404.html, and a generated listing for a project without HTML.
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
  if (rest === undefined) return { kind: 'redirect', status: 302, location: `${prefix}/${index && !atRoot ? encodeUrlPath(index) : ''}${query}` };
  if (rest === '') {
    if (atRoot) return { kind: 'file', file: site.files.get(index)!, status: 200 };
    return index ? { kind: 'redirect', status: 302, location: `${prefix}/${encodeUrlPath(index)}${query}` } : { kind: 'listing' };
  }
  const path = rest.normalize('NFC');
  if (atRoot && path === ROOT_INDEX) return { kind: 'redirect', status: 301, location: `${prefix}/${query}` };
  const exact = visible(path);
  if (exact) return { kind: 'file', file: exact, status: 200 };
  if (path.endsWith('/')) {
    const dirIndex = visible(`${path}index.html`) ?? visible(`${path}index.htm`);
    if (dirIndex) return { kind: 'file', file: dirIndex, status: 200 };
  } else {
    const page = visible(`${path}.html`) ?? visible(`${path}.htm`);
    if (page) return { kind: 'file', file: page, status: 200 };
    if (visible(`${path}/index.html`) ?? visible(`${path}/index.htm`)) {
      return { kind: 'redirect', status: 301, location: `${prefix}/${encodeUrlPath(path)}/${query}` };
    }
  }
  // Served away from its folder, these pages get a base so their relative URLs still resolve.
  const rootBase = (file: string) => `${prefix}/${encodeUrlPath(file.slice(0, file.lastIndexOf('/') + 1))}`;
  if (site.spa && index && !hasExtension(path)) {
    return { kind: 'file', file: site.files.get(index)!, status: 200, baseHref: rootBase(index) };
  }
  const custom404 = visible('404.html');
  if (custom404) return { kind: 'file', file: custom404, status: 404, baseHref: rootBase('404.html') };
  return { kind: 'not-found' };
}
