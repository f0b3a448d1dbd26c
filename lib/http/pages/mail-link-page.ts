import { escapeHtml } from '@/lib/escape-html';
import { localeSettings } from '@/lib/env';
import { guestPageHtml } from '@/lib/http/guest-page';
import { localeOf } from '@/lib/http/locale-of';
import { requestLocaleOf } from '@/lib/http/request-locale';
import { translator } from '@/lib/i18n/messages';
import type { Locale } from '@/lib/i18n/locales';

/** Where a sentence names the profile: a link to /files, left to right in any language. */
const PROFILE = '\u0000';
const PROFILE_HTML = '<bdi dir="ltr"><a href="/files">/files</a></bdi>';

export type MailPageWords = ReturnType<typeof translator<'mailPages'>>;

/**
 * The pages an e-mail's links open (/confirm-email, /unsubscribe), in the reader's language: the
 * recipient's own setting where the page knows who that is (the mail went out in it), else the
 * request's (a signed-in member's setting, the picker's cookie, Accept-Language).
 */
export async function mailLinkLocale(req: Request, recipientLocale?: string | null): Promise<Locale> {
  const header = (name: string) => req.headers.get(name) ?? undefined;
  return recipientLocale ? localeOf(header, recipientLocale) : requestLocaleOf(header);
}

export function mailPageWords(locale: Locale): MailPageWords {
  return translator(locale, 'mailPages', localeSettings());
}

/** One paragraph of the page: `text` escaped, its {path} the link to the profile. */
export const paragraph = (text: string) => `<p>${escapeHtml(text).replace(PROFILE, PROFILE_HTML)}</p>`;

/** The `path` value of a sentence that names the profile (see paragraph()). */
export const profilePath = { path: PROFILE };

/** A form with one button that POSTs back to `action` (the mail scanner's GET changes nothing). */
export const confirmForm = (action: string, label: string) =>
  `<form method="post" action="${escapeHtml(action)}"><button type="submit" style="min-height:44px;padding:0 20px;border-radius:8px;border:0;background:#4f46e5;color:#fff;font:inherit">${escapeHtml(label)}</button></form>`;

export function mailLinkPage(locale: Locale, status: number, heading: string, bodyHtml: string, tone: 'missing' | 'clock' = 'clock'): Response {
  return new Response(guestPageHtml({ locale, title: heading, heading, bodyHtml, tone }), {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff', Vary: 'Accept-Language, Cookie' },
  });
}
