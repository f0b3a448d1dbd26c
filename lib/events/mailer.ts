import 'server-only';
import nodemailer, { type Transporter } from 'nodemailer';
import {
  claimMailEvents,
  finishMailEvents,
  lastDigestAt,
  markDigestSent,
  postponeMailEvents,
  receivedUpload,
  shareNamings,
  usersByIds,
  type MailEvent,
  type NotifyKind,
} from '@/db/queries/mail';
import { hitRateLimit, peekRateLimit } from '@/db/queries/rate-limits';
import type { UserRow } from '@/db/schema';
import { sha256Hex } from '../auth/crypto';
import { getServerSecret, type Runtime } from '../runtime';
import { downloadsMail, expiringMail, mailLocale, mailShareTitle, UPLOAD_MAIL_FILES, uploadMail, type MailBody, type UploadMailData } from './mail-body';
import { unsubscribeQuery } from './unsubscribe';

/**
 * E-mail notifications (SMTP_URL): completed downloads (one digest per share per
 * NOTIFY_DIGEST_MINUTES), uploads through a request, shares expiring within a day — each only
 * when the owner has a confirmed address and that kind switched on, and within the hourly
 * budget of that address and that account (mailBudget; past it they wait for the next hour). Events come from the outbox
 * (events.mail_at), claimed with SKIP LOCKED and a lease as deliveries are, so every instance
 * may run this and each mail goes once; a failed send is tried again a minute later.
 */
const LEASE_SECONDS = 120;
const RETRY_MS = 60_000;

const transport = { url: '', t: null as Transporter | null };

function transporter(url: string): Transporter {
  if (transport.url !== url || !transport.t) {
    transport.t = nodemailer.createTransport(url, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as never);
    transport.url = url;
  }
  return transport.t;
}

function baseUrl(rt: Runtime): string {
  return rt.env.publicUrl ?? `http://${rt.env.host === '0.0.0.0' ? 'localhost' : rt.env.host}:${rt.env.port}`;
}

function fromAddress(rt: Runtime): string {
  if (rt.env.mail.from) return rt.env.mail.from;
  const host = rt.env.publicUrl ? new URL(rt.env.publicUrl).hostname : 'localhost';
  return `htmls <htmls@${host}>`;
}

const wants: Record<NotifyKind, (u: UserRow) => boolean> = {
  downloads: (u) => u.notifyDownloads,
  uploads: (u) => u.notifyUploads,
  expiring: (u) => u.notifyExpiring,
};
const kindOf: Record<string, NotifyKind> = { 'share.downloaded': 'downloads', 'request.uploaded': 'uploads', 'share.expiring': 'expiring' };

/**
 * Every mail counts against two hourly budgets, whatever its kind (confirmations too): its
 * recipient's (the address's SHA-256, so the counters hold no address) and its account's —
 * so no account, and no number of accounts, can make this server a mail cannon (issue 39,
 * item 3). Checked before counting, so mails that wait do not use the next hour up.
 */
export async function mailBudget(rt: Runtime, userId: string, address: string): Promise<{ ok: true } | { ok: false; retryInSeconds: number }> {
  const keys = [`mail:to:${sha256Hex(address.trim().toLowerCase())}`, `mail:user:${userId}`];
  for (const key of keys) {
    const { count, resetInSeconds } = await peekRateLimit(rt.db, key, 3600);
    if (count >= rt.env.mail.maxPerHour) return { ok: false, retryInSeconds: resetInSeconds };
  }
  for (const key of keys) await hitRateLimit(rt.db, key, 3600);
  return { ok: true };
}

/** Sends one mail from the service's address (the caller has checked mailBudget). */
export async function sendMail(rt: Runtime, to: string, body: MailBody, headers: Record<string, string> = {}): Promise<void> {
  const smtpUrl = rt.env.mail.smtpUrl;
  if (!smtpUrl) return;
  await transporter(smtpUrl).sendMail({
    from: fromAddress(rt),
    to,
    subject: body.subject,
    text: body.text,
    html: body.html,
    headers: { 'Auto-Submitted': 'auto-generated', ...headers },
  });
}

export const serviceUrl = baseUrl;

/**
 * A guest's upload as its mail tells it: the share as it is now (files with sizes, the sender's
 * e-mail and message, which no event payload carries), else — the share deleted meanwhile —
 * what the event named.
 */
async function uploadMailData(rt: Runtime, shareId: string, data: Record<string, unknown>): Promise<UploadMailData> {
  const name = typeof data.name === 'string' ? data.name : null;
  const bytes = Number(data.bytes ?? 0);
  const upload = shareId ? await receivedUpload(rt.db, shareId, UPLOAD_MAIL_FILES) : null;
  if (upload) return { ...upload, name: upload.name ?? name, bytes };
  const files = Array.isArray(data.files) ? data.files.filter((f): f is string => typeof f === 'string') : [];
  return { name, email: null, message: null, requestNote: null, files: files.map((path) => ({ path, size: null })), fileCount: Number(data.file_count ?? files.length), bytes };
}

/** One batch of due mail events; the number claimed. */
export async function mailDue(rt: Runtime): Promise<number> {
  const smtpUrl = rt.env.mail.smtpUrl;
  if (!smtpUrl) return 0;
  const claimed = await claimMailEvents(rt.db, 50, LEASE_SECONDS);
  if (claimed.length === 0) return 0;
  const owners = await usersByIds(rt.db, [...new Set(claimed.map((e) => e.userId))]);
  const secret = await getServerSecret(rt);
  const base = baseUrl(rt);
  type Links = { open: string; unsubscribe: string };
  const send = async (owner: UserRow, kind: NotifyKind, build: (links: Links) => MailBody) => {
    const unsubscribe = `${base}/unsubscribe?${unsubscribeQuery(secret, owner.id, kind)}`;
    const body = build({ open: `${base}/files`, unsubscribe });
    await sendMail(rt, owner.email, body, { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  };
  const done: string[] = [];
  const later = async (events: MailEvent[], at: Date) => postponeMailEvents(rt.db, events.map((e) => e.id), at);
  /** Over the hour's budget: the group waits until it ends (a download digest then takes in what came meanwhile). */
  const withinBudget = async (owner: UserRow, group: MailEvent[]) => {
    const budget = await mailBudget(rt, owner.id, owner.email);
    if (!budget.ok) await later(group, new Date(Date.now() + budget.retryInSeconds * 1000));
    return budget.ok;
  };

  // Each group is one mail: a share's downloads together, every other event alone.
  const groups = new Map<string, MailEvent[]>();
  for (const e of claimed) {
    const key = e.type === 'share.downloaded' ? `d:${String(e.data.share_id)}` : e.id;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const namings = await shareNamings(rt.db, claimed.map((e) => String(e.data.share_id ?? '')).filter(Boolean));
  for (const group of groups.values()) {
    const first = group[0];
    const kind = kindOf[first.type];
    const owner = owners.get(first.userId);
    // An unconfirmed address gets nothing but its one confirmation mail (lib/users/email-confirmation.ts).
    if (!kind || !owner || !owner.email || !owner.emailVerified || owner.status !== 'active' || !wants[kind](owner)) {
      done.push(...group.map((e) => e.id));
      continue;
    }
    const shareId = String(first.data.share_id ?? '');
    // In the owner's language (issue 40): theirs if set, else the server's default.
    const locale = mailLocale(owner.locale, rt.env.defaultLocale);
    const naming = namings.get(shareId);
    const title = naming ? mailShareTitle(locale, naming.note, naming.firstPath, naming.fileCount) : String(first.data.note ?? '');
    try {
      if (kind === 'downloads') {
        const last = await lastDigestAt(rt.db, shareId);
        const next = last ? new Date(last.getTime() + rt.env.mail.digestMinutes * 60_000) : null;
        if (next && next.getTime() > Date.now()) {
          await later(group, next);
          continue;
        }
        const downloads = group.map((e) => ({ path: (e.data.path as string | null) ?? null, bytes: Number(e.data.bytes), at: e.createdAt }));
        if (!(await withinBudget(owner, group))) continue;
        // Marked before sending: a download committed while this mail is on its way joins the next digest.
        await markDigestSent(rt.db, shareId);
        await send(owner, kind, (links) => downloadsMail(locale, { id: shareId, title }, downloads, links));
      } else if (kind === 'uploads') {
        if (!(await withinBudget(owner, group))) continue;
        const upload = await uploadMailData(rt, shareId, first.data);
        await send(owner, kind, (links) => uploadMail(locale, upload, links));
      } else {
        if (!(await withinBudget(owner, group))) continue;
        await send(owner, kind, (links) => expiringMail(locale, { id: shareId, title, expiresAt: new Date(String(first.data.expires_at)) }, links));
      }
      done.push(...group.map((e) => e.id));
    } catch (e) {
      console.error('[htmls] notification mail not sent yet:', (e as Error).message);
      await later(group, new Date(Date.now() + RETRY_MS));
    }
  }
  await finishMailEvents(rt.db, done);
  return claimed.length;
}
