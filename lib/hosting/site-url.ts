/**
 * A project's address for people (links and copy buttons in the console): on its hosted
 * origin, given as a template where `{slug}` stands for the project (per-site origins), or on
 * this origin when there is none (the sandbox opt-out). Safe for the browser bundle.
 */
export function siteUrl(hostedBase: string | null, slug: string, path = '', deployId?: string): string {
  const prefix = `/p/${slug}${deployId ? `@${deployId}` : ''}/${path.split('/').map(encodeURIComponent).join('/')}`;
  if (hostedBase) return hostedBase.replace('{slug}', slug) + prefix;
  return typeof window === 'undefined' ? prefix : new URL(prefix, window.location.origin).toString();
}
