import type { Metadata } from 'next';
import { cookies, headers } from 'next/headers';
import { cache } from 'react';
import { notFound } from 'next/navigation';
import { server } from '@/lib/http/next-link';
import { ShareView } from './_components/share-view';

type Params = Promise<{ id: string }>;

/** The share as this request's guest may see it: read once for the page and its <title>. */
const openShare = cache(async (id: string) => {
  const jar = await cookies();
  return server().pages.openShare(id, jar.toString());
});

/** The tab, OpenGraph and Twitter card tags and the oEmbed link (lib/http/pages/share-page.ts). */
export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { id } = await params;
  const [access, h] = [await openShare(id), await headers()];
  return server().pages.shareMetadata(id, access, h);
}

/**
 * The guest page of a share. The 404/410/401 cases never reach here: server.ts (the one
 * supported entry point) answers them first with the right status, in lib/http/guest-page.ts's
 * layout. Previews are fetched by the visitor's browser, by Range, when they scroll into view,
 * from `?preview`, which never counts as a download (docs/downloads.md).
 */
export default async function SharePage({ params }: { params: Params }) {
  const { id } = await params;
  const access = await openShare(id);
  const share = server().pages.shareView(access);
  if (!share) notFound();
  return <ShareView share={share} />;
}
