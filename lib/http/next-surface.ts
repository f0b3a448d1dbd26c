import 'server-only';
/**
 * Everything Next's pages, route handlers and proxy call on the server, installed by server.ts
 * before Next starts (lib/http/next-link.ts is their side). Next's bundle holds none of these
 * modules: there is one copy of the server's code and state per process.
 */
import { apiModules } from './api';
import * as confirmEmail from './pages/confirm-email';
import * as offline from './pages/offline';
import * as unsubscribe from './pages/unsubscribe';
import { openShare, shareMetadata, shareView } from './pages/share-page';
import { requestView } from './pages/request-page';
import { csp, directoryPage, htmlsPage } from './pages/console-pages';
import { localeSettings } from '../env';
import type { Locale } from '../i18n/locales';
import { compiledMessagesOf } from '../i18n/messages';
import { localeOf } from './locale-of';
import { requestLocaleOf } from './request-locale';

export const nextSurface = {
  /** Route handlers by their path under app/ (the /api ones under app/api). */
  routes: { ...apiModules, unsubscribe, 'confirm-email': confirmEmail, offline },
  pages: { openShare, shareMetadata, shareView, requestView, directoryPage, htmlsPage },
  csp,
  /**
   * The request's language and its messages (i18n/request.ts, next-intl's request configuration):
   * `requestLocaleOf` takes a signed-in member's own setting first; `localeOf` only the cookie
   * and Accept-Language.
   */
  i18n: { localeOf, requestLocaleOf, messagesOf: (locale: Locale) => compiledMessagesOf(locale, localeSettings()) },
};

export type NextSurface = typeof nextSurface;
