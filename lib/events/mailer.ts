import 'server-only';
import nodemailer, { type Transporter } from 'nodemailer';
import {
  claimMailEvents,
  finishMailEvents,
  lastDigestAt,
  markDigestSent,
  postponeMailEvents,
  shareNotes,
  usersByIds,
  type MailEvent,
  type NotifyKind,
} from '@/db/queries/mail';
import type { UserRow } from '@/db/schema';
import { processState } from '../process-state';
import { getServerSecret, type Runtime } from '../runtime';
import { downloadsMail, expiringMail, uploadMail, type MailBody } from './mail-body';
import { unsubscribeQuery } from './unsubscribe';

/**
 * E-mail notifications (SMTP_URL): completed downloads (one digest per share per
 * NOTIFY_DIGEST_MINUTES), uploads through a request, shares expiring within a day — each only
 * when the owner has an address and that kind switched on. Events come from the outbox
 * (events.mail_at), claimed with SKIP LOCKED and a lease as deliveries are, so every instance
 * may run this and each mail goes once; a failed send is tried again a minute later.
 */
const LEASE_SECONDS = 120;
const RETRY_MS = 60_000;

const transport = processState('mail-transport', () => ({ url: '', t: null as Transporter | null }));

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
    await transporter(smtpUrl).sendMail({
      from: fromAddress(rt),
      to: owner.email,
      subject: body.subject,
      text: body.text,
      html: body.html,
      headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', 'Auto-Submitted': 'auto-generated' },
    });
  };
  const done: string[] = [];
  const later = async (events: MailEvent[], at: Date) => postponeMailEvents(rt.db, events.map((e) => e.id), at);

  // Each group is one mail: a share's downloads together, every other event alone.
  const groups = new Map<string, MailEvent[]>();
  for (const e of claimed) {
    const key = e.type === 'share.downloaded' ? `d:${String(e.data.share_id)}` : e.id;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const notes = await shareNotes(rt.db, claimed.map((e) => String(e.data.share_id ?? '')).filter(Boolean));
  for (const group of groups.values()) {
    const first = group[0];
    const kind = kindOf[first.type];
    const owner = owners.get(first.userId);
    if (!kind || !owner || !owner.email || owner.status !== 'active' || !wants[kind](owner)) {
      done.push(...group.map((e) => e.id));
      continue;
    }
    const shareId = String(first.data.share_id ?? '');
    try {
      if (kind === 'downloads') {
        const last = await lastDigestAt(rt.db, shareId);
        const next = last ? new Date(last.getTime() + rt.env.mail.digestMinutes * 60_000) : null;
        if (next && next.getTime() > Date.now()) {
          await later(group, next);
          continue;
        }
        const downloads = group.map((e) => ({ path: (e.data.path as string | null) ?? null, bytes: Number(e.data.bytes), at: e.createdAt }));
        // Marked before sending: a download committed while this mail is on its way joins the next digest.
        await markDigestSent(rt.db, shareId);
        await send(owner, kind, (links) => downloadsMail({ id: shareId, note: notes.get(shareId) ?? '' }, downloads, links));
      } else if (kind === 'uploads') {
        await send(owner, kind, (links) => uploadMail(first.data as { name: string | null; file_count: number; bytes: number }, links));
      } else {
        await send(owner, kind, (links) => expiringMail({ id: shareId, note: notes.get(shareId) ?? String(first.data.note ?? ''), expiresAt: String(first.data.expires_at) }, links));
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
