import { escapeHtml } from '../http/html';

export interface MailBody {
  subject: string;
  text: string;
  html: string;
}

const formatBytes = (n: number) => {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${n} bytes` : `${v.toFixed(1)} ${units[i]}`;
};

/** One notification mail: a heading, lines of plain text (escaped in the HTML), links. */
function compose(subject: string, lines: string[], links: { open: string; unsubscribe: string; what: string }): MailBody {
  const text = [...lines, '', `Open htmls: ${links.open}`, '', `Stop e-mails about ${links.what}: ${links.unsubscribe}`].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#18181b">
${lines.map((l) => `<p style="margin:0 0 8px">${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(links.open)}">Open htmls</a></p>
<p style="color:#71717a;font-size:12px"><a href="${escapeHtml(links.unsubscribe)}">Stop e-mails about ${escapeHtml(links.what)}</a></p>
</body></html>`;
  return { subject, text, html };
}

const shareName = (note: string, id: string) => (note.trim() ? `"${note.trim()}"` : `share ${id}`);

export function downloadsMail(
  share: { id: string; note: string },
  downloads: { path: string | null; bytes: number; at: Date }[],
  links: { open: string; unsubscribe: string },
): MailBody {
  const name = shareName(share.note, share.id);
  const subject = downloads.length === 1 ? `Your share ${name} was downloaded` : `Your share ${name} was downloaded ${downloads.length} times`;
  const lines = [
    downloads.length === 1 ? `Someone downloaded your share ${name} to the last byte:` : `${downloads.length} downloads of your share ${name} reached their last byte:`,
    ...downloads.map((d) => `• ${d.path ?? 'everything, as a ZIP'} (${formatBytes(d.bytes)}) at ${d.at.toISOString().replace('T', ' ').slice(0, 16)} UTC`),
  ];
  return compose(subject, lines, { ...links, what: 'downloads' });
}

export function uploadMail(data: { name: string | null; file_count: number; bytes: number }, links: { open: string; unsubscribe: string }): MailBody {
  const who = data.name?.trim() ? data.name.trim() : 'Someone';
  return compose(
    `${who} sent you ${data.file_count} file${data.file_count === 1 ? '' : 's'}`,
    [`${who} uploaded ${data.file_count} file${data.file_count === 1 ? '' : 's'} (${formatBytes(data.bytes)}) through your file request.`, 'The files wait in your shares, offline until you publish them.'],
    { ...links, what: 'uploads through your requests' },
  );
}

export function expiringMail(share: { id: string; note: string; expiresAt: string }, links: { open: string; unsubscribe: string }): MailBody {
  const name = shareName(share.note, share.id);
  return compose(
    `Your share ${name} expires within a day`,
    [`Your share ${name} expires at ${share.expiresAt.replace('T', ' ').slice(0, 16)} UTC.`, 'Extend its expiry in htmls if it should stay available.'],
    { ...links, what: 'expiring shares' },
  );
}
