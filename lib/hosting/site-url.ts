/**
 * A project's address for people (links and copy buttons in the console): on its hosted
 * origin, given as a template where `{slug}` stands for the project (per-site origins, where
 * the project is at the root), or on this origin when there is none (the sandbox opt-out).
 * Safe for the browser bundle.
 */
export function siteUrl(hostedBase: string | null, slug: string, path = '', deployId?: string): string {
  const file = path.split('/').map(encodeURIComponent).join('/');
  const prefix = `/p/${slug}${deployId ? `@${deployId}` : ''}/${file}`;
  if (hostedBase?.includes('{slug}')) return hostedBase.replace('{slug}', slug) + (deployId ? prefix : `/${file}`);
  if (hostedBase) return hostedBase + prefix;
  return typeof window === 'undefined' ? prefix : new URL(prefix, window.location.origin).toString();
}
