import type { Metadata } from 'next';
import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getMessages, getTranslations } from 'next-intl/server';
import { cookies } from 'next/headers';
import { notFound } from 'next/navigation';
import { ErrorTextProvider } from '@/app/_components/error-text';
import { LanguagePicker } from '@/app/_components/language-picker';
import { server } from '@/lib/http/next-link';
import { RequestUpload } from './_components/request-upload';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('request');
  return { title: t('metaTitle'), referrer: 'no-referrer', robots: { index: false } };
}

type Params = Promise<{ id: string }>;

/**
 * A file request's upload page (its data: lib/http/pages/request-page.ts), in the guest's
 * language: the browser gets this page's messages only (the `request`, `progress` and `errors`
 * namespaces of one language; `errors` so the API's refusals read in it too).
 */
export default async function RequestPage({ params }: { params: Params }) {
  const { id } = await params;
  const jar = await cookies();
  const view = await server().pages.requestView(id, jar.toString(), (name) => jar.get(name)?.value);
  if (!view) notFound();
  const [locale, messages, picker] = await Promise.all([getLocale(), getMessages(), getTranslations('picker')]);
  return (
    <NextIntlClientProvider locale={locale} messages={{ request: messages.request, progress: messages.progress, errors: messages.errors }}>
      <ErrorTextProvider>
        <RequestUpload request={view} />
      </ErrorTextProvider>
      <footer className="mx-auto flex max-w-2xl justify-end px-4 pb-8">
        <LanguagePicker locale={locale} label={picker('label')} />
      </footer>
    </NextIntlClientProvider>
  );
}
