import 'server-only';
import type { Metadata } from 'next';
import { previewKind } from '../../mime';
import { assertMigrated, getRuntime } from '../../runtime';
import { guestAccess, type GuestAccess } from '../../shares/access';
import { limitedPreviewable } from '../guest/serve-preview';
import { parseCookies } from '../cookies';
import { ownOrigin, type HeaderSource } from '../origin';
import { shareCard, shareCardPath } from '../../shares/link-preview';
import { oembedHref } from '../../shares/oembed';
import { pictureOf, playableVideo, playerPath, posterPath } from '../../shares/share-picture';
import { encodeUrlPath } from '../../paths/relative-path';
import type { ShareViewItem, ViewShare } from '../../contract/pages';

/** The share as this request's guest may see it (its cookies decide a password share's access). */
export async function openShare(id: string, cookieHeader: string): Promise<GuestAccess> {
  const rt = await getRuntime();
  await assertMigrated(rt);
  return guestAccess(rt, id, parseCookies(cookieHeader));
}

/**
 * Unfurlers read the same description as OpenGraph and Twitter card tags, the card image and the
 * oEmbed link (lib/shares/link-preview.ts): all from the share the page loads anyway.
 */
export async function shareMetadata(id: string, access: GuestAccess, headers: HeaderSource): Promise<Metadata> {
  const rt = await getRuntime();
  const shown = access.state === 'open' || access.state === 'exhausted';
  const card = shareCard(rt.env, shown ? { state: access.state, group: access.share.group, paths: access.share.items.map((it) => it.relativePath) } : { state: access.state });
  const origin = ownOrigin(rt.env, headers, 'http://localhost/');
  const url = `${origin}/f/${id}`;
  const image = { url: `${origin}${shareCardPath(id)}`, width: 1200, height: 630, type: 'image/png', alt: card.title };
  // The tab's title is the page's (app/f/[id]/page.tsx, in the guest's language): a guest who
  // unlocked a password share still reads its name there, while its card stays generic.
  const base = {
    description: card.description,
    referrer: 'no-referrer',
    robots: { index: false },
    alternates: { types: { 'application/json+oembed': oembedHref(origin, url) } },
  } satisfies Metadata;
  const og = { type: 'website', siteName: 'htmls', title: card.title, description: card.description, url } as const;
  if (card.generic || !shown) {
    return { ...base, openGraph: { ...og, images: [image] }, twitter: { card: 'summary_large_image', title: card.title, description: card.description, images: [image.url] } };
  }
  // A one-file share whose poster (a video) or thumbnail (an image) is made shows it first; a
  // single video without password or limit also plays inline where the unfurler allows.
  const { group, items } = access.share;
  const only = items.length === 1 ? items[0] : null;
  const picture = only && pictureOf(only);
  const images = picture
    ? [{ url: `${origin}${posterPath(id, only.relativePath)}`, width: picture.width, height: picture.height, type: 'image/jpeg', alt: card.title }, image]
    : [image];
  const video = playableVideo(group, items);
  if (!video) {
    return { ...base, openGraph: { ...og, images }, twitter: { card: 'summary_large_image', title: card.title, description: card.description, images: [images[0].url] } };
  }
  const stream = `${origin}/f/${id}/${encodeUrlPath(video.relativePath)}?preview`;
  const size = picture ? { width: picture.width, height: picture.height } : { width: 1280, height: 720 };
  return {
    ...base,
    openGraph: { ...og, type: 'video.other', images, videos: [{ url: stream, ...(stream.startsWith('https:') ? { secureUrl: stream } : {}), type: video.contentType, ...size }] },
    twitter: {
      card: 'player',
      title: card.title,
      description: card.description,
      images: [images[0].url],
      players: [{ playerUrl: `${origin}${playerPath(id)}`, streamUrl: stream, ...size }],
    },
  };
}

/**
 * What the share page shows, or null when it is not open (server.ts's gate answered 404, 410
 * and 401 before the page renders; a share that changed state in between is simply not found).
 * O(items) small work, no object read: names, sizes and preview kinds only.
 */
export function shareView(access: GuestAccess): ViewShare | null {
  if (access.state !== 'open' && access.state !== 'exhausted') return null;
  const { group, items, ownerName } = access.share;
  const max = group.maxDownloads;
  // With a limit, previews are bounded (lib/http/guest/serve-preview.ts): some files have none.
  const preview = (type: string, size: number) => (max === null || limitedPreviewable(type, size) ? previewKind(type) : null);
  return {
    id: group.id,
    note: group.note,
    sharedBy: ownerName,
    createdAt: group.createdAt.toISOString(),
    expiresAt: group.expiresAt ? group.expiresAt.toISOString() : null,
    totalBytes: Number(group.totalBytes),
    items: items.map((it) => {
      const pic = pictureOf(it);
      // Without a picture the row stays three long: 500 rows ship no 500 nulls.
      const row: ShareViewItem = [it.relativePath, Number(it.size), preview(it.contentType, Number(it.size))];
      if (pic) row.push([pic.width, pic.height, pic.durationMs]);
      return row;
    }),
    limit: max === null ? null : { max, left: Math.max(0, max - Number(group.downloadCount)) },
  };
}
