import 'server-only';
import type { ShareItemRow } from '@/db/schema';
import { previewKind } from '../mime';
import { encodeUrlPath } from '../paths/relative-path';

/** The address of an item's poster or thumbnail, beside its bytes (same gate). */
export const posterPath = (id: string, relativePath: string) => `/f/${id}/${encodeUrlPath(relativePath)}?poster`;
/** The embeddable player of a single-video share (twitter:player). */
export const playerPath = (id: string) => `/f/${id}.player`;

/** What a guest may see of an item's derived picture: its address, size and the video's duration. */
export function pictureOf(item: Pick<ShareItemRow, 'previewState' | 'previewKey' | 'previewWidth' | 'previewHeight' | 'durationMs'>) {
  if (item.previewState !== 'ready' || !item.previewKey || !item.previewWidth || !item.previewHeight) return null;
  return { width: item.previewWidth, height: item.previewHeight, durationMs: item.durationMs };
}

/**
 * The share's one video when an unfurl may play it inline (og:video, twitter:player): a single
 * item, a video, no password, no download limit (a limited share's preview is only its ends).
 */
export function playableVideo<I extends Pick<ShareItemRow, 'contentType' | 'relativePath'>>(
  group: { passwordHash: string | null; maxDownloads: number | null },
  items: readonly I[],
): I | null {
  if (group.passwordHash || group.maxDownloads !== null || items.length !== 1) return null;
  return previewKind(items[0].contentType) === 'video' ? items[0] : null;
}
