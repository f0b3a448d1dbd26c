import { formatBytes } from '../format-bytes';
import { escapeHtml } from '../escape-html';
import { dirOf, isLocale, type Locale } from '../i18n/locales';
import { localeSettings } from '../env';
import { translator } from '../i18n/messages';

export interface MailBody {
  subject: string;
  text: string;
  html: string;
}

/**
 * Member- and guest-written text (share notes, names, file names) goes into a body only, never
 * a subject (issue 39, item 3): on one line, without control or bidi-override characters (which
 * could make "exe.pdf" read as "fdp.exe"), shortened, and quoted so it reads as someone's words.
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g;
const QUOTED_MAX = 60;
const oneLine = (s: string) => s.replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
const shortened = (s: string) => {
  const flat = oneLine(s);
  const chars = [...flat];
  return chars.length > QUOTED_MAX ? `${chars.slice(0, QUOTED_MAX - 1).join('').trimEnd()}…` : flat;
};
export const quoted = (s: string): string => `“${shortened(s)}”`;

/** The mails' messages in a language (in the pseudo-locale's English with PSEUDO_LOCALE=1). */
const mailT = (locale: Locale) => translator(locale, 'mail', localeSettings());
type MailT = ReturnType<typeof mailT>;
/** As quoted, with the quotation marks of the mail's language („…“, « … », 「…」). */
const quotedIn = (t: MailT) => (s: string) => t('quote', { text: shortened(s) });

/**
 * Dates as people read them, in the recipient's language, through Intl; mails carry no time zone
 * of their reader, so UTC, said. English reads day-month-year ("2 Jan 2026, 03:04 UTC"): the
 * service's readers are not all in the US.
 */
const dateFormats = new Map<Locale, Intl.DateTimeFormat>();
export function formatMailDate(d: Date, locale: Locale): string {
  let f = dateFormats.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    dateFormats.set(locale, f);
  }
  return `${f.format(d)} UTC`;
}

/**
 * Someone's own words kept as they wrote them, line breaks included (a guest's message): without
 * control or bidi-override characters, at most three lines apart, and never longer than a request
 * takes (5,000 characters).
 */
const CONTROLS_BUT_BREAKS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g;
export function keptAsWritten(s: string): string {
  const chars = [...s.replace(/\r\n?/g, '\n').replace(CONTROLS_BUT_BREAKS, ' ').replace(/\n{3,}/g, '\n\n').trim()];
  return chars.length > 5000 ? `${chars.slice(0, 4999).join('')}…` : chars.join('');
}

/** A line of a mail: plain text, or someone's words set apart as a quote ("> " in the text part). */
type Line = string | { quote: string };

/** The links under a mail: where to open htmls, and the one-click stop of that kind of mail. */
interface Links {
  open: string;
  unsubscribe?: string;
  /** The stop link's words ("Stop e-mails about downloads"), in the recipient's language. */
  stop?: string;
  openLabel?: string;
}

/** One notification mail in a language: lines of plain text (escaped in the HTML), links. */
function compose(locale: Locale, subject: string, lines: Line[], links: Links): MailBody {
  const t = mailT(locale);
  const openLabel = links.openLabel ?? t('openHtmls');
  const stop = links.unsubscribe && links.stop ? ['', t('linkLine', { label: links.stop, url: links.unsubscribe })] : [];
  const asText = (l: Line) => (typeof l === 'string' ? l : l.quote.split('\n').map((q) => (q ? `> ${q}` : '>')).join('\n'));
  // Logical properties: in a right-to-left mail the quote's bar stands on the right.
  const asHtml = (l: Line) =>
    typeof l === 'string'
      ? `<p style="margin:0 0 8px">${escapeHtml(l)}</p>`
      : `<blockquote dir="auto" style="margin:0 0 8px;padding-inline-start:12px;border-inline-start:3px solid #d4d4d8;white-space:pre-wrap">${escapeHtml(l.quote)}</blockquote>`;
  const text = [...lines.map(asText), '', t('linkLine', { label: openLabel, url: links.open }), ...stop].join('\n');
  const html = `<!doctype html><html lang="${locale}" dir="${dirOf(locale)}"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#18181b">
${lines.map(asHtml).join('\n')}
<p><a href="${escapeHtml(links.open)}">${escapeHtml(openLabel)}</a></p>
${links.unsubscribe && links.stop ? `<p style="color:#71717a;font-size:12px"><a href="${escapeHtml(links.unsubscribe)}">${escapeHtml(links.stop)}</a></p>\n` : ''}</body></html>`;
  return { subject, text, html };
}

/**
 * What a share is called in a mail, in its recipient's language: its note's first line, else its
 * files ("report.pdf und 2 weitere") — lib/share-title.ts's rule, whose fallbacks are English.
 */
export function mailShareTitle(locale: Locale, note: string, firstPath: string | null | undefined, fileCount: number): string {
  const t = mailT(locale);
  const line = note.split('\n')[0].trim();
  if (line) return line.slice(0, 120);
  if (!firstPath || fileCount < 1) return t('titleSharedFiles');
  const name = firstPath.split('/').filter(Boolean).pop() ?? firstPath;
  return fileCount === 1 ? name : t('titleAndMore', { name, count: fileCount - 1 });
}

export function downloadsMail(
  locale: Locale,
  share: { id: string; title: string },
  downloads: { path: string | null; bytes: number; at: Date }[],
  links: { open: string; unsubscribe: string },
): MailBody {
  const t = mailT(locale);
  const quote = quotedIn(t);
  const count = downloads.length;
  const lines = [
    t('downloadsIntro', { count, name: quote(share.title) }),
    ...downloads.map(
      (d) => `• ${t('downloadItem', { item: d.path === null ? t('downloadEverything') : quote(d.path), size: formatBytes(d.bytes, locale), time: formatMailDate(d.at, locale) })}`,
    ),
  ];
  return compose(locale, t('downloadsSubject', { count }), lines, { ...links, stop: t('stopDownloads') });
}

/** Files a mail about a guest's upload names one by one; past them "and N more". */
export const UPLOAD_MAIL_FILES = 20;

export interface UploadMailData {
  name: string | null;
  email: string | null;
  message: string | null;
  /** The request's note, the owner's own words for what they asked for. */
  requestNote: string | null;
  /** In path order; a size is null when only the event's names are left (the share was deleted). */
  files: { path: string; size: number | null }[];
  fileCount: number;
  bytes: number;
}

/**
 * The owner's mail about a guest's upload through a request (issue 41, item 3): who sent it, as
 * they gave themselves on the request page, the files by name and size (the first
 * UPLOAD_MAIL_FILES) and the guest's message as they wrote it — all of it guest-written, so in
 * the body only, quoted, and escaped in the HTML. The subject says only how many files came.
 */
export function uploadMail(locale: Locale, data: UploadMailData, links: { open: string; unsubscribe: string }): MailBody {
  const t = mailT(locale);
  const quote = quotedIn(t);
  const name = data.name?.trim() ? quote(data.name) : null;
  const email = data.email?.trim() ? oneLine(data.email) : null;
  const who = name && email ? t('uploadWhoNameEmail', { name, email }) : name ? name : email ? t('uploadWhoEmail', { email }) : t('uploadWhoNobody');
  const request = data.requestNote?.trim() ? quote(data.requestNote.split('\n')[0]) : '';
  const shown = data.files.slice(0, UPLOAD_MAIL_FILES);
  const more = data.fileCount - shown.length;
  const message = data.message ? keptAsWritten(data.message) : '';
  const lines: Line[] = [
    t('uploadIntro', { who, count: data.fileCount, size: formatBytes(data.bytes, locale), named: request ? 'yes' : 'no', request }),
    ...shown.map((f) => `• ${quote(f.path)}${f.size === null ? '' : ` (${formatBytes(f.size, locale)})`}`),
    ...(more > 0 ? [`• ${t('uploadMore', { count: more })}`] : []),
    ...(message ? [name ? t('uploadMessageFrom', { name }) : t('uploadMessageFromSender'), { quote: message }] : []),
    t('uploadWaiting'),
  ];
  return compose(locale, t('uploadSubject', { count: data.fileCount }), lines, { ...links, stop: t('stopUploads') });
}

export function expiringMail(locale: Locale, share: { id: string; title: string; expiresAt: Date }, links: { open: string; unsubscribe: string }): MailBody {
  const t = mailT(locale);
  const quote = quotedIn(t);
  return compose(
    locale,
    t('expiringSubject'),
    [t('expiringBody', { name: quote(share.title), time: formatMailDate(share.expiresAt, locale) }), t('expiringHint')],
    { ...links, stop: t('stopExpiring') },
  );
}

/** The one mail an unconfirmed address gets: no member-written text at all, not even the username. */
export function confirmationMail(locale: Locale, link: string, expiresAt: Date): MailBody {
  const t = mailT(locale);
  return compose(locale, t('confirmSubject'), [t('confirmWhy'), t('confirmUntil', { time: formatMailDate(expiresAt, locale) }), t('confirmIgnore')], {
    open: link,
    openLabel: t('confirmOpen'),
  });
}

/** The language of a member's mails: their own setting, else the server's DEFAULT_LOCALE. */
export const mailLocale = (memberLocale: string | null | undefined, defaultLocale: Locale): Locale => (isLocale(memberLocale) ? memberLocale : defaultLocale);
