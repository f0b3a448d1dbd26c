import 'server-only';
import { LOCALE_NAMES, LOCALES, type Locale } from '../i18n/locales';
import { localeSettings } from '../env';
import { translator } from '../i18n/messages';
import { escapeHtml } from '../escape-html';

/**
 * The language picker of the pages the server writes without scripts (password, error and
 * offline pages): a form that posts `locale` and `next` to the origin's picker endpoint
 * (lib/http/locale-choice.ts) — POST /locale on the main origin, POST /p/<slug>/locale on the
 * hosted one — which sets the picker's cookie and comes back to `next`.
 */
export const LOCALE_CHOICE_PATH = '/locale';

/**
 * A hosted project's picker endpoint, on the hosted origin beside its unlock form (a deploy's
 * preview included: the endpoint is the project's, not the deploy's).
 */
export const projectLocaleChoicePath = (slug: string) => `/p/${slug}/locale`;

/** Where a page's picker posts, and the path it comes back to (none: the origin's fallback). */
export interface PickerTarget {
  action: string;
  next?: string;
}

/** The no-script picker: each language in its own words, the current one selected, and a button. */
export function pickerHtml(locale: Locale, target: PickerTarget): string {
  const t = translator(locale, 'picker', localeSettings());
  const options = LOCALES.map((l) => `<option value="${l}" lang="${l}"${l === locale ? ' selected' : ''}>${escapeHtml(LOCALE_NAMES[l])}</option>`).join('');
  return `<form class="lang" method="post" action="${escapeHtml(target.action)}">
${target.next ? `<input type="hidden" name="next" value="${escapeHtml(target.next)}">` : ''}<label for="htmls-locale">${escapeHtml(t('label'))}</label>
<select id="htmls-locale" name="locale" data-testid="language-picker">${options}</select>
<button type="submit">${escapeHtml(t('apply'))}</button>
</form>`;
}
