import type { Metadata } from 'next';
import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getMessages, getTranslations } from 'next-intl/server';
import { headers } from 'next/headers';
import { server } from '@/lib/http/next-link';
import { AppWorker } from '@/app/_components/app-worker';
import { ErrorTextProvider } from '@/app/_components/error-text';
import { codeTag } from '@/app/_components/ui';
import { HtmlsApp } from './_components/htmls-app';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('htmls');
  return { title: t('metaTitle') };
}

/**
 * The same page for every visitor: whether the administrator is signed in is settled by the
 * console with the API (lib/client/console-session.ts), never from the cookie here.
 */
export default async function HtmlsPage() {
  // Request time first: the page is rendered per request (its CSP nonce), never at build, where
  // the environment need not be valid.
  const h = await headers();
  const { hostedBase, sandbox } = server().pages.htmlsPage(h);
  // The console's client components get only the namespaces they use, of one language (docs/translations.md).
  const [locale, messages, t] = await Promise.all([getLocale(), getMessages(), getTranslations('htmls')]);
  const { picker, htmls, sites, projects, audit, progress, errors } = messages;
  return (
    <NextIntlClientProvider locale={locale} messages={{ picker, htmls, sites, projects, audit, progress, errors }}>
      {/* With the visitor's cookies, so the manifest comes in the page's language (as /files's). */}
      <link rel="manifest" href="/htmls/manifest.webmanifest" crossOrigin="use-credentials" />
      <AppWorker scope="/htmls" />
      {/* About the setup, not an account: shown with the login too. */}
      {sandbox ? (
        <p role="alert" className="mx-auto mt-4 max-w-5xl rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200">
          {t.rich('sandbox', { portSetting: 'HOSTED_PORT=0', originSetting: 'HOSTED_ORIGIN', portName: 'HOSTED_PORT', code: codeTag })}
        </p>
      ) : null}
      <ErrorTextProvider>
        <HtmlsApp hostedBase={hostedBase} />
      </ErrorTextProvider>
    </NextIntlClientProvider>
  );
}
