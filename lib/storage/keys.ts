import 'server-only';
/**
 * The two key families of the spec. Hosted files carry an upload batch id after the slug, so
 * a new version never overwrites the bytes a live record points to; a batch's compressed
 * copies sit beside it (`<batch>~br/`, `<batch>~gz/`), under the same project prefix.
 */
export const hostedFileKey = (slug: string, batch: string, path: string) => `files/${slug}/${batch}/${path}`;

export type Encoding = 'br' | 'gzip';
const SUFFIX: Record<Encoding, string> = { br: '~br', gzip: '~gz' };

/** Where the compressed copy of a hosted object is kept. */
export function compressedKey(key: string, encoding: Encoding): string {
  const parts = key.split('/');
  parts[2] += SUFFIX[encoding];
  return parts.join('/');
}

/** Every prefix one upload batch writes under: its objects and their compressed copies. */
export const batchPrefixes = (slug: string, batch: string) => [
  `files/${slug}/${batch}/`,
  `files/${slug}/${batch}${SUFFIX.br}/`,
  `files/${slug}/${batch}${SUFFIX.gzip}/`,
];

/** The batch id of a hosted key (`files/<slug>/<batch>/…`). */
export const batchOfKey = (key: string) => key.split('/')[2];

/**
 * A share group's objects. Files being added to a published share (`addsTo`) live in a folder
 * of that share's prefix named after the addition, so deleting the share takes them too, and a
 * file added at the path of one just removed never meets that one's pending deletion.
 */
export const sharedGroupPrefix = (groupId: string, addsTo?: string | null) => (addsTo ? `shared/${addsTo}/+${groupId}/` : `shared/${groupId}/`);
export const sharedFileKey = (groupId: string, relativePath: string, addsTo?: string | null) => `${sharedGroupPrefix(groupId, addsTo)}${relativePath}`;

/**
 * A share item's derived picture (its poster frame or thumbnail, docs/link-previews.md): under
 * the share's prefix, so deleting the share deletes it, in a folder no relative path can name
 * (a segment ending in a dot is refused by lib/paths/relative-path.ts).
 */
export const derivedKey = (shareId: string, itemId: string, from: 'server' | 'browser' = 'server') =>
  // The browser's frame has a key of its own: a worker's late answer for the same item never overwrites it.
  `shared/${shareId}/derived./${itemId}${from === 'browser' ? '-b' : ''}.jpg`;
