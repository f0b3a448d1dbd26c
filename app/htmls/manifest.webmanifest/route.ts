import { getLocale, getTranslations } from 'next-intl/server';
import { isLocale } from '@/lib/i18n/locales';
import { manifestResponse } from '@/lib/pwa/manifest';

// GET /htmls/manifest.webmanifest — the installable administrator's console, in the request's language
// Its words (read through the namespace manifest.htmls): i18n-keys: manifest.htmls.*
export async function GET() {
  const [locale, t] = await Promise.all([getLocale(), getTranslations('manifest.htmls')]);
  return manifestResponse('htmls', isLocale(locale) ? locale : 'en', { name: t('name'), shortName: t('shortName'), description: t('description') });
}
