import 'server-only';
import type { FastReply } from './fast';
import { guestPageHtml, type GuestTone } from './guest-page';
import { escapeHtml } from './html';

/** Our own pages on /p/ and /f/: no script at all, so the strictest policy fits. */
export const PASSWORD_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const htmlHeaders = () => ({
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': PASSWORD_PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
});

export function passwordPage(opts: {
  status: number;
  title: string;
  action: string;
  next?: string;
  error?: string;
}): FastReply {
  const body = guestPageHtml({
    title: `${opts.title} · password required`,
    heading: 'Password required',
    tone: 'lock',
    bodyHtml: `<p>${escapeHtml(opts.title)} is protected. Enter the password you were given to continue.</p>
${opts.error ? `<p class="err" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<form method="post" action="${escapeHtml(opts.action)}">
${opts.next ? `<input type="hidden" name="next" value="${escapeHtml(opts.next)}">` : ''}
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Unlock</button>
</form>`,
  });
  return { status: opts.status, headers: htmlHeaders(), body };
}

/** What a guest reads for each refusal: what happened and what to do, not the bare status. */
const EXPLAINED: Record<string, { heading: string; text: string; tone: GuestTone }> = {
  not_found: {
    heading: 'Nothing here',
    text: 'This link does not lead to anything. It may be mistyped, taken offline or deleted. Check the address, or ask the person who sent it.',
    tone: 'missing',
  },
  expired: {
    heading: 'This link has expired',
    text: 'Its owner set it to stop working after a date, and that date has passed. Ask them for a new link.',
    tone: 'clock',
  },
  download_limit: {
    heading: 'Download limit reached',
    text: 'This share has been downloaded as many times as its owner allowed. Ask them for a new link.',
    tone: 'limit',
  },
  request_full: {
    heading: 'This request is full',
    text: 'It has received all the uploads its owner asked for. Ask them for a new link if you have more to send.',
    tone: 'limit',
  },
  rate_limited: { heading: 'Too many attempts', text: 'Wait a few minutes, then try again.', tone: 'lock' },
  storage_unavailable: { heading: 'Temporarily unavailable', text: 'The files cannot be reached right now. Try again in a minute.', tone: 'error' },
  database_unavailable: { heading: 'Temporarily unavailable', text: 'The service cannot answer right now. Try again in a minute.', tone: 'error' },
};

/** An error page in the guest layout; known codes get their explanation, others the message. */
export function messagePage(status: number, title: string, message: string, code?: string): FastReply {
  const known = code ? EXPLAINED[code] : undefined;
  const body = guestPageHtml({
    title: known?.heading ?? title,
    heading: known?.heading ?? title,
    tone: known?.tone ?? 'error',
    bodyHtml: `<p>${escapeHtml(known?.text ?? message)}</p>`,
  });
  return { status, headers: htmlHeaders(), body };
}

/** The page the service worker shows when a navigation fails for want of a network. */
export function offlinePageHtml(): string {
  return guestPageHtml({
    title: 'Offline · htmls',
    heading: 'You are offline',
    tone: 'offline',
    home: '/',
    bodyHtml: `<p>htmls needs a connection to upload files and manage shares. Your shares are safe on the server: reconnect, then try again.</p>
<p><a class="btn" href="">Try again</a></p>`,
  });
}
