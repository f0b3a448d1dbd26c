import 'server-only';
import { hitRateLimit, peekRateLimit } from '@/db/queries/rate-limits';
import { confirmEmailToken, setEmailToken } from '@/db/queries/users';
import type { UserRow } from '@/db/schema';
import { randomToken, sha256Hex } from '../auth/crypto';
import { AppError, badRequest } from '../errors';
import { confirmationMail, mailLocale } from '../events/mail-body';
import { mailBudget, sendMail, serviceUrl } from '../events/mailer';
import type { Runtime } from '../runtime';

/**
 * Mail goes only to a confirmed address (issue 39, item 3): setting or changing `email` clears
 * `email_verified` and mails one link; notifications wait until it is opened. The token is
 * 256 random bits, stored as its SHA-256 only, single-use, and expires after a day.
 * Confirmation mails are limited per account and per recipient (an address gets at most a few
 * a day however many accounts name it), and count toward the hourly mail budget of both
 * (lib/events/mailer.ts mailBudget).
 */
const TOKEN_MS = 24 * 3600_000;
export const CONFIRM_LIMITS = {
  perAccount: { limit: 3, windowSeconds: 3600 },
  perRecipient: { limit: 3, windowSeconds: 86_400 },
} as const;

export interface Confirmation {
  token: string;
  fields: Pick<UserRow, 'emailVerified' | 'emailTokenHash' | 'emailTokenExpiresAt'>;
}

/** The fields of a change of address with no link to mail (cleared, or no SMTP): unconfirmed. */
export const unconfirmed: Confirmation['fields'] = { emailVerified: false, emailTokenHash: null, emailTokenExpiresAt: null };

const recipientKey = (address: string) => sha256Hex(address.trim().toLowerCase());

const limited = (seconds: number) =>
  new AppError('rate_limited', `Too many confirmation e-mails; try again in ${Math.ceil(seconds / 60)} minutes`, { 'Retry-After': String(seconds) });

/**
 * Counts one confirmation mail to `address` for `userId` against every limit, and makes its
 * token; throws 429 when a limit is reached (nothing counted then). Null when this server
 * sends no mail (no SMTP_URL): the address then stays unconfirmed.
 */
export async function reserveConfirmation(rt: Runtime, userId: string, address: string): Promise<Confirmation | null> {
  if (!rt.env.mail.smtpUrl || !address) return null;
  const keys = [
    { key: `mail-confirm:user:${userId}`, ...CONFIRM_LIMITS.perAccount },
    { key: `mail-confirm:to:${recipientKey(address)}`, ...CONFIRM_LIMITS.perRecipient },
  ];
  for (const k of keys) {
    const { count, resetInSeconds } = await peekRateLimit(rt.db, k.key, k.windowSeconds);
    if (count >= k.limit) throw limited(resetInSeconds);
  }
  const budget = await mailBudget(rt, userId, address);
  if (!budget.ok) throw limited(budget.retryInSeconds);
  for (const k of keys) await hitRateLimit(rt.db, k.key, k.windowSeconds);
  const token = randomToken();
  return { token, fields: { emailVerified: false, emailTokenHash: sha256Hex(token), emailTokenExpiresAt: new Date(Date.now() + TOKEN_MS) } };
}

/** As reserveConfirmation, but past a limit the address is saved unconfirmed without a mail (the member can resend). */
export async function tryReserveConfirmation(rt: Runtime, userId: string, address: string): Promise<Confirmation | null> {
  try {
    return await reserveConfirmation(rt, userId, address);
  } catch (e) {
    if (e instanceof AppError && e.code === 'rate_limited') return null;
    throw e;
  }
}

/**
 * Mails the link once the address and its token are stored, in the member's language (else the
 * server's default). In the background: SMTP never holds up the request.
 */
export function sendConfirmation(rt: Runtime, address: string, c: Confirmation | null, memberLocale: string | null): void {
  if (!c) return;
  const link = `${serviceUrl(rt)}/confirm-email?token=${encodeURIComponent(c.token)}`;
  sendMail(rt, address, confirmationMail(mailLocale(memberLocale, rt.env.defaultLocale), link, c.fields.emailTokenExpiresAt!)).catch((e: Error) =>
    console.error('[htmls] confirmation mail not sent (the member can send it again from /files):', e.message),
  );
}

/** POST /api/auth/email/resend: a new link for the member's unconfirmed address (the old one stops working). */
export async function resendConfirmation(rt: Runtime, user: UserRow): Promise<UserRow> {
  if (!user.email) throw badRequest('Your profile has no e-mail address');
  if (user.emailVerified) throw new AppError('conflict', 'This address is already confirmed');
  if (!rt.env.mail.smtpUrl) throw badRequest('This server sends no e-mail (SMTP_URL is not set)');
  const c = (await reserveConfirmation(rt, user.id, user.email))!;
  const row = await setEmailToken(rt.db, user.id, user.email, c.fields);
  if (!row) throw new AppError('conflict', 'Your address changed meanwhile; reload and try again');
  sendConfirmation(rt, user.email, c, row.locale);
  return row;
}

/** POST /api/auth/email/confirm {token}: the link's token, once, before it expires. Needs no session: the mailbox is the proof. */
export async function confirmEmail(rt: Runtime, token: string): Promise<UserRow> {
  const row = token ? await confirmEmailToken(rt.db, sha256Hex(token)) : null;
  if (!row) throw badRequest('This confirmation link is not valid: it was used already, has expired, or a newer one was sent');
  return row;
}
