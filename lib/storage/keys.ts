/**
 * The two key families of the spec. Hosted files carry an upload batch id after the slug, so
 * a new version never overwrites the bytes a live record points to.
 */
export const hostedFileKey = (slug: string, batch: string, path: string) => `files/${slug}/${batch}/${path}`;
export const hostedBatchPrefix = (slug: string, batch: string) => `files/${slug}/${batch}/`;

/** `files/<slug>/<batch>/` of a hosted key. */
export function hostedBatchPrefixOf(key: string): string {
  const parts = key.split('/');
  return `${parts.slice(0, 3).join('/')}/`;
}

export const sharedFileKey = (groupId: string, relativePath: string) => `shared/${groupId}/${relativePath}`;
export const sharedGroupPrefix = (groupId: string) => `shared/${groupId}/`;
