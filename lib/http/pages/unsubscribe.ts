import { setNotification } from '@/db/queries/mail';
import { verifyUnsubscribe } from '@/lib/events/unsubscribe';
import { guestPageHtml } from '@/lib/http/guest-page';
import { escapeHtml } from '@/lib/escape-html';
import { getRuntime, getServerSecret } from '@/lib/runtime';

const WHAT = { downloads: 'downloads of your shares', uploads: 'uploads through your file requests', expiring: 'shares about to expire' } as const;

const page = (status: number, heading: string, bodyHtml: string, tone: 'missing' | 'clock' = 'clock') =>
  new Response(guestPageHtml({ title: heading, heading, bodyHtml, tone }), {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' },
  });

async function check(req: Request) {
  const rt = await getRuntime();
  const q = new URL(req.url).searchParams;
  return { rt, q, link: verifyUnsubscribe(await getServerSecret(rt), q) };
}

const invalid = () => page(400, 'This link is not valid', '<p>Change your e-mail settings in your profile at /files.</p>', 'missing');

// GET /unsubscribe?u&k&s — asks to confirm (a mail scanner opening the link changes nothing)
export async function GET(req: Request): Promise<Response> {
  const { q, link } = await check(req);
  if (!link) return invalid();
  return page(
    200,
    'Stop these e-mails?',
    `<p>You will no longer get e-mails about ${escapeHtml(WHAT[link.kind])}. You can switch them on again in your profile.</p>
<form method="post" action="/unsubscribe?${escapeHtml(q.toString())}"><button type="submit" style="min-height:44px;padding:0 20px;border-radius:8px;border:0;background:#4f46e5;color:#fff;font:inherit">Stop these e-mails</button></form>`,
  );
}

// POST /unsubscribe?u&k&s — the form's button, or a mail client's one-click unsubscribe (RFC 8058): the signed link is the authority, no login
export async function POST(req: Request): Promise<Response> {
  const { rt, link } = await check(req);
  if (!link) return invalid();
  await setNotification(rt.db, link.userId, link.kind, false);
  return page(200, 'Unsubscribed', `<p>You will no longer get e-mails about ${escapeHtml(WHAT[link.kind])}.</p>`);
}
