import { formatBytes } from '../format-bytes';
import { escapeHtml } from '../http/html';

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
export function quoted(s: string): string {
  const flat = oneLine(s);
  const chars = [...flat];
  return `“${chars.length > QUOTED_MAX ? `${chars.slice(0, QUOTED_MAX - 1).join('').trimEnd()}…` : flat}”`;
}

/** Dates as people read them, through Intl; mails carry no time zone of their reader, so UTC, said. */
const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
export const formatMailDate = (d: Date) => `${dateTime.format(d)} UTC`;

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

/** One notification mail: a heading, lines of plain text (escaped in the HTML), links. */
function compose(subject: string, lines: Line[], links: { open: string; unsubscribe?: string; what?: string; openLabel?: string }): MailBody {
  const openLabel = links.openLabel ?? 'Open htmls';
  const stop = links.unsubscribe ? ['', `Stop e-mails about ${links.what}: ${links.unsubscribe}`] : [];
  const asText = (l: Line) => (typeof l === 'string' ? l : l.quote.split('\n').map((q) => (q ? `> ${q}` : '>')).join('\n'));
  const asHtml = (l: Line) =>
    typeof l === 'string'
      ? `<p style="margin:0 0 8px">${escapeHtml(l)}</p>`
      : `<blockquote style="margin:0 0 8px;padding-left:12px;border-left:3px solid #d4d4d8;white-space:pre-wrap">${escapeHtml(l.quote)}</blockquote>`;
  const text = [...lines.map(asText), '', `${openLabel}: ${links.open}`, ...stop].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#18181b">
${lines.map(asHtml).join('\n')}
<p><a href="${escapeHtml(links.open)}">${escapeHtml(openLabel)}</a></p>
${links.unsubscribe ? `<p style="color:#71717a;font-size:12px"><a href="${escapeHtml(links.unsubscribe)}">Stop e-mails about ${escapeHtml(links.what ?? '')}</a></p>\n` : ''}</body></html>`;
  return { subject, text, html };
}

/** A share as a mail names it: its note, else its file names (shareTitle), quoted. */
const shareName = (title: string) => `your share ${quoted(title)}`;

export function downloadsMail(
  share: { id: string; title: string },
  downloads: { path: string | null; bytes: number; at: Date }[],
  links: { open: string; unsubscribe: string },
): MailBody {
  const name = shareName(share.title);
  const subject = downloads.length === 1 ? 'Your share was downloaded' : `Your share was downloaded ${downloads.length} times`;
  const lines = [
    downloads.length === 1 ? `Someone downloaded ${name} to the last byte:` : `${downloads.length} downloads of ${name} reached their last byte:`,
    ...downloads.map((d) => `• ${d.path === null ? 'everything, as a ZIP' : quoted(d.path)} (${formatBytes(d.bytes)}) at ${formatMailDate(d.at)}`),
  ];
  return compose(subject, lines, { ...links, what: 'downloads' });
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
 * the body only, quoted, and escaped in the HTML.
 */
export function uploadMail(data: UploadMailData, links: { open: string; unsubscribe: string }): MailBody {
  const name = data.name?.trim() ? quoted(data.name) : null;
  const email = data.email?.trim() ? oneLine(data.email) : null;
  const who = name && email ? `${name} (${email})` : name ? name : email ? `Someone who gave the address ${email}` : 'Someone';
  const files = `${data.fileCount} file${data.fileCount === 1 ? '' : 's'}`;
  const request = data.requestNote?.trim() ? ` ${quoted(data.requestNote.split('\n')[0])}` : '';
  const shown = data.files.slice(0, UPLOAD_MAIL_FILES);
  const more = data.fileCount - shown.length;
  const message = data.message ? keptAsWritten(data.message) : '';
  const lines: Line[] = [
    `${who} uploaded ${files} (${formatBytes(data.bytes)}) through your file request${request}:`,
    ...shown.map((f) => `• ${quoted(f.path)}${f.size === null ? '' : ` (${formatBytes(f.size)})`}`),
    ...(more > 0 ? [`• and ${more} more`] : []),
    ...(message ? [`${name ?? 'The sender'} wrote:`, { quote: message }] : []),
    'The files wait in your shares, offline until you publish them.',
  ];
  return compose(`You received ${files} through your file request`, lines, { ...links, what: 'uploads through your requests' });
}

export function expiringMail(share: { id: string; title: string; expiresAt: Date }, links: { open: string; unsubscribe: string }): MailBody {
  const name = shareName(share.title);
  return compose(
    'Your share expires within a day',
    [`${name[0].toUpperCase()}${name.slice(1)} expires at ${formatMailDate(share.expiresAt)}.`, 'Extend its expiry in htmls if it should stay available.'],
    { ...links, what: 'expiring shares' },
  );
}

/** The one mail an unconfirmed address gets: no member-written text at all, not even the username. */
export function confirmationMail(link: string, expiresAt: Date): MailBody {
  return compose(
    'Confirm your e-mail address for htmls',
    [
      'Someone entered this address in their htmls profile. Open the link to confirm that it is yours; until then htmls sends it nothing else.',
      `The link works once, until ${formatMailDate(expiresAt)}.`,
      'If this was not you, ignore this mail: the address stays unconfirmed.',
    ],
    { open: link, openLabel: 'Confirm this address' },
  );
}
