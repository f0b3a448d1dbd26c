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
export function quoted(s: string): string {
  const flat = s.replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return `“${chars.length > QUOTED_MAX ? `${chars.slice(0, QUOTED_MAX - 1).join('').trimEnd()}…` : flat}”`;
}

/** Dates as people read them, through Intl; mails carry no time zone of their reader, so UTC, said. */
const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
export const formatMailDate = (d: Date) => `${dateTime.format(d)} UTC`;

/** One notification mail: a heading, lines of plain text (escaped in the HTML), links. */
function compose(subject: string, lines: string[], links: { open: string; unsubscribe?: string; what?: string; openLabel?: string }): MailBody {
  const openLabel = links.openLabel ?? 'Open htmls';
  const stop = links.unsubscribe ? ['', `Stop e-mails about ${links.what}: ${links.unsubscribe}`] : [];
  const text = [...lines, '', `${openLabel}: ${links.open}`, ...stop].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#18181b">
${lines.map((l) => `<p style="margin:0 0 8px">${escapeHtml(l)}</p>`).join('\n')}
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

export function uploadMail(data: { name: string | null; file_count: number; bytes: number }, links: { open: string; unsubscribe: string }): MailBody {
  const who = data.name?.trim() ? `Someone who gave the name ${quoted(data.name)}` : 'Someone';
  const files = `${data.file_count} file${data.file_count === 1 ? '' : 's'}`;
  return compose(
    `You received ${files} through your file request`,
    [`${who} uploaded ${files} (${formatBytes(data.bytes)}) through your file request.`, 'The files wait in your shares, offline until you publish them.'],
    { ...links, what: 'uploads through your requests' },
  );
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
