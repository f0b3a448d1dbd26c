import { AppError } from '@/lib/errors';
import { getRuntime } from '@/lib/runtime';
import { confirmEmail } from '@/lib/users/email-confirmation';
// Its words: the 'mailPages' messages (./mail-link-page.ts).
import { confirmForm, mailLinkLocale, mailLinkPage, mailPageWords, paragraph, profilePath } from './mail-link-page';

const token = (req: Request) => new URL(req.url).searchParams.get('token') ?? '';

// GET /confirm-email?token= — the link of a confirmation mail asks for a click: a mail scanner
// opening the link must not confirm an address someone else typed in.
export async function GET(req: Request): Promise<Response> {
  const locale = await mailLinkLocale(req);
  const t = mailPageWords(locale);
  const value = token(req);
  if (!value) return mailLinkPage(locale, 400, t('invalidTitle'), paragraph(t('confirmInvalid', profilePath)), 'missing');
  return mailLinkPage(locale, 200, t('confirmTitle'), `${paragraph(t('confirmText'))}\n${confirmForm(`/confirm-email?token=${encodeURIComponent(value)}`, t('confirmButton'))}`);
}

// POST /confirm-email?token= — the page's button (POST /api/auth/email/confirm is the same for scripts)
export async function POST(req: Request): Promise<Response> {
  let confirmed;
  try {
    confirmed = await confirmEmail(await getRuntime(), token(req));
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    const locale = await mailLinkLocale(req);
    const t = mailPageWords(locale);
    return mailLinkPage(locale, 400, t('invalidTitle'), paragraph(t('confirmUsed', profilePath)), 'missing');
  }
  // In the language of the member whose address it is (the mail went out in it).
  const locale = await mailLinkLocale(req, confirmed.locale);
  const t = mailPageWords(locale);
  return mailLinkPage(locale, 200, t('confirmedTitle'), paragraph(t('confirmedText')));
}
