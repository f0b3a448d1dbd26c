import { headers } from 'next/headers';
import { getRequestConfig } from 'next-intl/server';
import { server } from '@/lib/http/next-link';

/**
 * next-intl's request configuration, without i18n routing (no locale in any URL): the language
 * comes from the request (profile, cookie htmls_locale, Accept-Language, DEFAULT_LOCALE) as the
 * server's own pages choose it (lib/i18n/messages.ts), and its messages are the server's copy.
 * Pages hand the browser only the namespaces they use (docs/translations.md).
 */
export default getRequestConfig(async () => {
  const h = await headers();
  const { localeOf, messagesOf } = server().i18n;
  const locale = localeOf((name) => h.get(name) ?? undefined);
  return { locale, messages: messagesOf(locale) };
});
