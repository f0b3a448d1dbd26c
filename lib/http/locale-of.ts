import 'server-only';
import { cookieValue } from './cookies';
import { LOCALE_COOKIE, negotiateLocale, type Locale } from '../i18n/locales';
import { localeSettings } from '../env';

/**
 * A request's language from its Cookie and Accept-Language headers (the profile setting comes
 * first where there is one). Headers only: the hosted front's worker uses it through its error
 * pages, and loads nothing of sessions or the database (a member's setting is
 * lib/http/request-locale.ts's).
 */
export function localeOf(header: (name: string) => string | undefined, profile?: string | null): Locale {
  return negotiateLocale({
    profile,
    cookie: cookieValue(header('cookie'), LOCALE_COOKIE),
    acceptLanguage: header('accept-language'),
    defaultLocale: localeSettings().defaultLocale,
  });
}
