import { getLocale, getTranslations } from 'next-intl/server';
import { isLocale } from '@/lib/i18n/locales';
import { manifestResponse } from '@/lib/pwa/manifest';

// GET /files/manifest.webmanifest — the installable file-sharing app (with its share target), in
// the request's language (a member's setting, the picker's cookie, Accept-Language, DEFAULT_LOCALE)
// Its words (read through the namespace manifest.files): i18n-keys: manifest.files.*
export async function GET() {
  const [locale, t, tabs] = await Promise.all([getLocale(), getTranslations('manifest.files'), getTranslations('files.tabs')]);
  return manifestResponse('files', isLocale(locale) ? locale : 'en', {
    name: t('name'),
    description: t('description'),
    tabs: { upload: tabs('upload'), shares: tabs('shares'), settings: tabs('settings') },
  });
}
