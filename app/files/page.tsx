import type { Metadata } from 'next';
import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getMessages, getTranslations } from 'next-intl/server';
import { connection } from 'next/server';
import { AppWorker } from '@/app/_components/app-worker';
import { ErrorTextProvider } from '@/app/_components/error-text';
import { FilesApp } from './_components/files-app';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('files');
  return { title: t('metaTitle') };
}

/**
 * The same page for every visitor: who is signed in is settled by the console with the API
 * (the session cookie counts only with the console's X-Htmls-Account — a same-site hosted page
 * can swap the cookie, never that), so this page never shows one account's data to another. Only
 * its language follows a member's session cookie, when there is one (lib/http/request-locale.ts).
 */
export default async function FilesPage() {
  // Rendered per request all the same: the page's scripts carry this request's CSP nonce (proxy.ts).
  await connection();
  // The console's client components get only the namespaces they use, of one language (docs/translations.md).
  const [locale, messages] = await Promise.all([getLocale(), getMessages()]);
  const { picker, files, upload, progress, shares, additions, activity, errors, profile, security, passkeys, ssoIdentity, ssoErrors, tokens, webhooks, requests, users } = messages;
  return (
    <NextIntlClientProvider locale={locale} messages={{ picker, files, upload, progress, shares, additions, activity, errors, profile, security, passkeys, ssoIdentity, ssoErrors, tokens, webhooks, requests, users }}>
      {/* With the visitor's cookies (a manifest is fetched without them otherwise): it comes in their
          language, as the page does. React puts the link in the head. */}
      <link rel="manifest" href="/files/manifest.webmanifest" crossOrigin="use-credentials" />
      <AppWorker scope="/files" />
      <ErrorTextProvider>
        <FilesApp />
      </ErrorTextProvider>
    </NextIntlClientProvider>
  );
}
