import 'server-only';
import type { FastReply } from './fast';
import { guestPageHtml, type GuestTone } from './guest-page';
import { escapeHtml } from '../escape-html';
import { LOCALE_CHOICE_PATH, type PickerTarget } from './locale-picker';
import type { Locale } from '../i18n/locales';
import { localeSettings } from '../env';
import { messagesOf, translator } from '../i18n/messages';

/** Our own pages on /p/ and /f/: no script at all, so the strictest policy fits. */
export const PASSWORD_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const htmlHeaders = () => ({
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': PASSWORD_PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
});

/**
 * The password page, in the guest's `locale`. `subject` says what it guards, named so a guest
 * understands it: a share ("this shared link") or a file request ("this upload link") — their
 * addresses mean nothing to a guest — or a hosted project (named by its address, `title`).
 */
export function passwordPage(opts: {
  status: number;
  /** The hosted project's address; the other subjects are named by the page itself. */
  title?: string;
  action: string;
  next?: string;
  /** The last attempt's password was wrong. */
  wrong?: boolean;
  subject: 'share' | 'request' | 'project';
  locale: Locale;
  /** Where the language picker posts: the main origin's /locale unless told (a project's is on the hosted origin). */
  pickerAction?: string;
}): FastReply {
  const { locale, subject } = opts;
  const t = translator(locale, 'guest', localeSettings());
  const name = subject === 'request' ? t('lockedRequest') : subject === 'share' ? t('lockedShare') : (opts.title ?? '');
  const text = subject === 'request' ? t('passwordRequest') : subject === 'share' ? t('passwordShare') : t('passwordProject', { name });
  const body = guestPageHtml({
    locale,
    picker: { action: opts.pickerAction ?? LOCALE_CHOICE_PATH, next: opts.next },
    title: t('passwordTitle', { title: name }),
    heading: t('passwordHeading'),
    tone: 'lock',
    bodyHtml: `<p>${escapeHtml(text)}</p>
${opts.wrong ? `<p class="err" role="alert">${escapeHtml(t('wrongPassword'))}</p>` : ''}
<form method="post" action="${escapeHtml(opts.action)}">
${opts.next ? `<input type="hidden" name="next" value="${escapeHtml(opts.next)}">` : ''}
<label for="password">${escapeHtml(t('passwordLabel'))}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus dir="auto">
<button type="submit">${escapeHtml(t('unlock'))}</button>
</form>`,
  });
  return { status: opts.status, headers: htmlHeaders(), body };
}

/**
 * What a guest reads for each refusal: what happened and what to do, not the bare status
 * (messages: guest.errors.<code>.heading and .text).
 * i18n-keys: guest.errors.*
 */
const EXPLAINED: Record<string, GuestTone> = {
  not_found: 'missing',
  expired: 'clock',
  download_limit: 'limit',
  request_full: 'limit',
  rate_limited: 'lock',
  storage_unavailable: 'error',
  database_unavailable: 'error',
};

/** The statuses an unexplained error page is titled by (messages: guest.status.s<status>). */
const TITLED = new Set([400, 401, 404, 405, 410, 413, 416, 429, 502, 503]);

/**
 * An error page in the guest layout, in the guest's language: known codes get their
 * explanation; others a title by status and the code's meaning (errors.code.<code>), or the
 * API's own sentence in English, where it says more (the field, the part).
 * i18n-keys: guest.status.*
 */
export function messagePage(status: number, message: string, code?: string, locale: Locale = 'en', picker: PickerTarget | null = null): FastReply {
  const settings = localeSettings();
  const t = translator(locale, 'guest', settings);
  const tone = code && Object.hasOwn(EXPLAINED, code) ? EXPLAINED[code] : undefined;
  if (tone) {
    const k = code as keyof typeof EXPLAINED & 'not_found';
    const heading = t(`errors.${k}.heading`);
    const body = guestPageHtml({ locale, picker, title: heading, heading, tone, bodyHtml: `<p>${escapeHtml(t(`errors.${k}.text`))}</p>` });
    return { status, headers: htmlHeaders(), body };
  }
  const title = t(`status.${TITLED.has(status) ? (`s${status}` as 's400') : 'other'}`);
  const known = locale !== 'en' && code !== undefined && Object.hasOwn(messagesOf(locale, settings).errors.code, code);
  const text = known ? `<p>${escapeHtml(translator(locale, 'errors', settings)(`code.${code as 'not_found'}`))}</p>` : `<p lang="en" dir="ltr">${escapeHtml(message)}</p>`;
  const body = guestPageHtml({ locale, picker, title, heading: title, tone: 'error', bodyHtml: text });
  return { status, headers: htmlHeaders(), body };
}

/** The page the service worker shows when a navigation fails for want of a network. */
export function offlinePageHtml(locale?: Locale): string {
  const t = translator(locale ?? 'en', 'guest', localeSettings());
  return guestPageHtml({
    locale,
    title: t('offlineTitle'),
    heading: t('offlineHeading'),
    tone: 'offline',
    home: '/',
    // Back home after a choice: the page the guest was on is not known here (the worker shows this for any).
    picker: { action: LOCALE_CHOICE_PATH },
    bodyHtml: `<p>${escapeHtml(t('offlineText'))}</p>
<p><a class="btn" href="">${escapeHtml(t('tryAgain'))}</a></p>`,
  });
}
