import type { Metadata } from 'next';
import { cookies, headers } from 'next/headers';
import { cache } from 'react';
import { notFound } from 'next/navigation';
import { previewKind } from '@/lib/http/mime';
import { assertMigrated, getRuntime } from '@/lib/runtime';
import { guestAccess } from '@/lib/shares/access';
import { limitedPreviewable } from '@/lib/shares/serve-preview';
import { ownOrigin } from '@/lib/http/origin';
import { shareCard, shareCardPath } from '@/lib/shares/link-preview';
import { oembedHref } from '@/lib/shares/oembed';
import { shareTitle } from '@/lib/share-title';
import { ShareView, type ViewShare } from './_components/share-view';

type Params = Promise<{ id: string }>;

/** The share as this request's guest may see it: read once for the page and its <title>. */
const openShare = cache(async (id: string) => {
  const rt = await getRuntime();
  await assertMigrated(rt);
  const jar = await cookies();
  return guestAccess(rt, id, jar.toString());
});

/**
 * The tab says what the page's heading says: the share's note, else its files (lib/share-title.ts).
 * Unfurlers read the same description as OpenGraph and Twitter card tags, the card image and the
 * oEmbed link (lib/shares/link-preview.ts): all from the share the page loads anyway.
 */
export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { id } = await params;
  const access = await openShare(id);
  const rt = await getRuntime();
  const shown = access.state === 'open' || access.state === 'exhausted';
  const card = shareCard(rt.env, shown ? { state: access.state, group: access.share.group, paths: access.share.items.map((it) => it.relativePath) } : { state: access.state });
  const origin = ownOrigin(rt.env, await headers(), 'http://localhost/');
  const url = `${origin}/f/${id}`;
  const image = { url: `${origin}${shareCardPath(id)}`, width: 1200, height: 630, type: 'image/png', alt: card.title };
  // The tab of a guest who unlocked a password share still names it; its card stays generic.
  const title = shown ? shareTitle(access.share.group.note, access.share.items.map((it) => it.relativePath).sort()[0], access.share.items.length) : 'Shared files';
  return {
    title,
    description: card.description,
    referrer: 'no-referrer',
    robots: { index: false },
    openGraph: { type: 'website', siteName: 'htmls', title: card.title, description: card.description, url, images: [image] },
    twitter: { card: 'summary_large_image', title: card.title, description: card.description, images: [image.url] },
    alternates: { types: { 'application/json+oembed': oembedHref(origin, url) } },
  };
}

/**
 * The guest page of a share. The 404/410/401 cases never reach here: server.ts (the one
 * supported entry point) answers them first with the right status, in lib/http/guest-page.ts's
 * layout.
 *
 * The render costs O(items) small work and reads no object: names, sizes and preview kinds
 * only. Previews are fetched by the visitor's browser, by Range, when they scroll into view,
 * from `?preview`, which never counts as a download (docs/downloads.md).
 */
export default async function SharePage({ params }: { params: Params }) {
  const { id } = await params;
  const access = await openShare(id);
  // server.ts's gate (gateSharePage) has answered 404, 410 and 401 with their own pages before
  // this renders; a share that changed state in between is simply not found. A share out of
  // downloads renders and says so.
  if (access.state !== 'open' && access.state !== 'exhausted') notFound();
  const { group, items, ownerName } = access.share;
  const max = group.maxDownloads;
  // With a limit, previews are bounded (lib/shares/serve-preview.ts): some files have none.
  const preview = (type: string, size: number) => (max === null || limitedPreviewable(type, size) ? previewKind(type) : null);
  const share: ViewShare = {
    id: group.id,
    note: group.note,
    sharedBy: ownerName ?? 'the administrator',
    createdAt: group.createdAt.toISOString(),
    expiresAt: group.expiresAt ? group.expiresAt.toISOString() : null,
    totalBytes: Number(group.totalBytes),
    items: items.map((it) => [it.relativePath, Number(it.size), preview(it.contentType, Number(it.size))]),
    limit: max === null ? null : { max, left: Math.max(0, max - Number(group.downloadCount)) },
  };
  return <ShareView share={share} />;
}
