import { headers } from 'next/headers';
import { getRequestConfig } from 'next-intl/server';
import { server } from '@/lib/http/next-link';

/**
 * next-intl's request configuration, without i18n routing (no locale in any URL): the language
 * comes from the request (the signed-in member's profile setting, cookie htmls_locale,
 * Accept-Language, DEFAULT_LOCALE: lib/http/request-locale.ts), and its messages are the
 * server's copy.
 * Pages hand the browser only the namespaces they use (docs/translations.md).
 */
export default getRequestConfig(async () => {
  const h = await headers();
  const { requestLocaleOf, messagesOf } = server().i18n;
  const locale = await requestLocaleOf((name) => h.get(name) ?? undefined);
  return { locale, messages: messagesOf(locale) };
});
