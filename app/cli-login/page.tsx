import type { Metadata } from 'next';
import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getMessages, getTranslations } from 'next-intl/server';
import { connection } from 'next/server';
import { ErrorTextProvider } from '@/app/_components/error-text';
import { CliLogin } from './cli-login';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('cliLogin');
  return { title: t('title') };
}

/** `htmls login --sso`: the browser side of the hand-off (lib/auth/cli-handoff.ts), in the reader's language. */
export default async function CliLoginPage() {
  // Rendered per request: the page's scripts carry this request's CSP nonce (proxy.ts).
  await connection();
  const [locale, messages] = await Promise.all([getLocale(), getMessages()]);
  const { cliLogin, ssoErrors, errors } = messages;
  return (
    <NextIntlClientProvider locale={locale} messages={{ cliLogin, ssoErrors, errors }}>
      <ErrorTextProvider>
        <CliLogin />
      </ErrorTextProvider>
    </NextIntlClientProvider>
  );
}
