import { DEPLOY_REF, SLUG } from '../../hosting/slug-grammar';

/** /p/<slug>[@<deploy>]/<path>: `@<deploy>` is an unlisted preview of one deploy. */
export const HOSTED_URL_PATTERN = new RegExp(`^/p/(${SLUG})(?:@(${DEPLOY_REF}))?(?:/(.*))?$`);

export interface HostedTarget {
  slug: string;
  deployId?: string;
  /** The path after the prefix, still encoded; undefined for `/p/<slug>` itself. */
  rawRest?: string;
  /** What the site's own paths follow: `/p/<slug>` (or `/p/<slug>@<deploy>`), or '' at an origin's root. */
  prefix: string;
}

/**
 * The project and path a hosted request names. `site`: the project whose own origin this is
 * (served at the root), else undefined on the shared hosted origin.
 */
export function hostedTarget(pathname: string, method: string, site: string | undefined): HostedTarget | null {
  const m = HOSTED_URL_PATTERN.exec(pathname);
  // On its own origin a project owns every path; its unlock form still posts to /p/<slug>/unlock
  // and its pages' language picker to /p/<slug>/locale. Only those POSTs and a deploy's preview
  // (/p/<slug>@<deploy>/) leave the project's paths: a GET of /p/<slug>/locale or
  // /p/<slug>/unlock is its own (it may have such a folder).
  const kept = m && m[1] === site && (m[2] || (method === 'POST' && (m[3] === 'unlock' || m[3] === 'locale')));
  if (site && !kept) return { slug: site, rawRest: pathname.slice(1), prefix: '' };
  if (!m) return null;
  const [, slug, deployId, rawRest] = m;
  return { slug, deployId, rawRest, prefix: `/p/${slug}${deployId ? `@${deployId}` : ''}` };
}
