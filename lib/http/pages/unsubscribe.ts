import { setNotification } from '@/db/queries/mail';
import { findUserById } from '@/db/queries/users';
import { verifyUnsubscribe } from '@/lib/events/unsubscribe';
import { getRuntime, getServerSecret } from '@/lib/runtime';
// Its words: the 'mailPages' messages (./mail-link-page.ts).
import { confirmForm, mailLinkLocale, mailLinkPage, mailPageWords, paragraph, profilePath } from './mail-link-page';

/** The signed link's member and kind, and the page's language: the recipient's (the mail went out in it). */
async function check(req: Request) {
  const rt = await getRuntime();
  const q = new URL(req.url).searchParams;
  const link = verifyUnsubscribe(await getServerSecret(rt), q);
  const recipient = link ? await findUserById(rt.db, link.userId) : null;
  const locale = await mailLinkLocale(req, recipient?.locale);
  return { rt, q, link, locale, t: mailPageWords(locale) };
}

// GET /unsubscribe?u&k&s — asks to confirm (a mail scanner opening the link changes nothing)
export async function GET(req: Request): Promise<Response> {
  const { q, link, locale, t } = await check(req);
  if (!link) return mailLinkPage(locale, 400, t('invalidTitle'), paragraph(t('unsubscribeInvalid', profilePath)), 'missing');
  return mailLinkPage(locale, 200, t('unsubscribeTitle'), `${paragraph(t('unsubscribeText', { kind: link.kind }))}\n${confirmForm(`/unsubscribe?${q.toString()}`, t('unsubscribeButton'))}`);
}

// POST /unsubscribe?u&k&s — the form's button, or a mail client's one-click unsubscribe (RFC 8058): the signed link is the authority, no login
export async function POST(req: Request): Promise<Response> {
  const { rt, link, locale, t } = await check(req);
  if (!link) return mailLinkPage(locale, 400, t('invalidTitle'), paragraph(t('unsubscribeInvalid', profilePath)), 'missing');
  await setNotification(rt.db, link.userId, link.kind, false);
  return mailLinkPage(locale, 200, t('unsubscribedTitle'), paragraph(t('unsubscribedText', { kind: link.kind })));
}
