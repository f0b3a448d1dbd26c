import type { Metadata } from 'next';
import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getMessages, getTranslations } from 'next-intl/server';
import { cookies, headers } from 'next/headers';
import { cache } from 'react';
import { notFound } from 'next/navigation';
import { LanguagePicker } from '@/app/_components/language-picker';
import { server } from '@/lib/http/next-link';
import { ShareView } from './_components/share-view';
import { pageTitle } from './_components/share-title';

type Params = Promise<{ id: string }>;

/** The share as this request's guest may see it: read once for the page and its <title>. */
const openShare = cache(async (id: string) => {
  const jar = await cookies();
  return server().pages.openShare(id, jar.toString());
});

/** What the page shows of it (null: not open), also read once. */
const viewShare = cache(async (id: string) => server().pages.shareView(await openShare(id)));

/**
 * The tab's title in the guest's language; the OpenGraph and Twitter card tags and the oEmbed
 * link (lib/http/pages/share-page.ts) stay English: they are for unfurlers, whose one cached copy
 * of the card every reader in a chat sees, whatever their language.
 */
export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { id } = await params;
  const [access, h] = [await openShare(id), await headers()];
  const [card, title] = await Promise.all([server().pages.shareMetadata(id, access, h), pageTitle(await viewShare(id))]);
  return { ...card, title };
}

/**
 * The guest page of a share, in the guest's language: the browser gets this page's messages
 * only (the `share` namespace of one language). The 404/410/401 cases never reach here:
 * server.ts (the one supported entry point) answers them first with the right status, in
 * lib/http/guest-page.ts's layout. Previews are fetched by the visitor's browser, by Range,
 * when they scroll into view, from `?preview`, which never counts as a download (docs/downloads.md).
 */
export default async function SharePage({ params }: { params: Params }) {
  const { id } = await params;
  const share = await viewShare(id);
  if (!share) notFound();
  const [locale, messages, picker] = await Promise.all([getLocale(), getMessages(), getTranslations('picker')]);
  return (
    <NextIntlClientProvider locale={locale} messages={{ share: messages.share }}>
      <ShareView share={share} />
      <footer className="mx-auto flex max-w-4xl justify-end px-4 pb-8">
        <LanguagePicker locale={locale} label={picker('label')} />
      </footer>
    </NextIntlClientProvider>
  );
}
