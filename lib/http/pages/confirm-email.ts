import { AppError } from '@/lib/errors';
import { guestPageHtml } from '@/lib/http/guest-page';
import { escapeHtml } from '@/lib/escape-html';
import { getRuntime } from '@/lib/runtime';
import { confirmEmail } from '@/lib/users/email-confirmation';

const page = (status: number, heading: string, bodyHtml: string, tone: 'missing' | 'clock' = 'clock') =>
  new Response(guestPageHtml({ title: heading, heading, bodyHtml, tone }), {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' },
  });

const token = (req: Request) => new URL(req.url).searchParams.get('token') ?? '';

// GET /confirm-email?token= — the link of a confirmation mail asks for a click: a mail scanner
// opening the link must not confirm an address someone else typed in.
export async function GET(req: Request): Promise<Response> {
  const t = token(req);
  if (!t) return page(400, 'This link is not valid', '<p>Open the link from the confirmation e-mail, or send a new one from your profile at /files.</p>', 'missing');
  return page(
    200,
    'Confirm this e-mail address?',
    `<p>Someone entered this address in their htmls profile. Confirm only if that was you: htmls will then send it notifications.</p>
<form method="post" action="/confirm-email?token=${escapeHtml(encodeURIComponent(t))}"><button type="submit" style="min-height:44px;padding:0 20px;border-radius:8px;border:0;background:#4f46e5;color:#fff;font:inherit">Confirm this address</button></form>`,
  );
}

// POST /confirm-email?token= — the page's button (POST /api/auth/email/confirm is the same for scripts)
export async function POST(req: Request): Promise<Response> {
  try {
    await confirmEmail(await getRuntime(), token(req));
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return page(400, 'This link is not valid', `<p>${escapeHtml(e.message)}. Send a new one from your profile at /files.</p>`, 'missing');
  }
  return page(200, 'Address confirmed', '<p>htmls will send notifications to this address, as chosen in your profile.</p>');
}
