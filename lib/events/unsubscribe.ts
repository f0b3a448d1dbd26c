import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { NotifyKind } from '@/db/queries/mail';

export const NOTIFY_KINDS: readonly NotifyKind[] = ['downloads', 'uploads', 'expiring'];

const sign = (secret: string, userId: string, kind: string) =>
  createHmac('sha256', secret).update(`unsubscribe:${userId}:${kind}`).digest('base64url');

/** The query of an unsubscribe link: it needs no login, and names one user and one kind of mail. */
export function unsubscribeQuery(secret: string, userId: string, kind: NotifyKind): string {
  return new URLSearchParams({ u: userId, k: kind, s: sign(secret, userId, kind) }).toString();
}

/** The user and kind a link's query names, when its signature holds; else null. */
export function verifyUnsubscribe(secret: string, q: URLSearchParams): { userId: string; kind: NotifyKind } | null {
  const userId = q.get('u') ?? '';
  const kind = q.get('k') ?? '';
  const given = Buffer.from(q.get('s') ?? '');
  if (!NOTIFY_KINDS.includes(kind as NotifyKind) || !/^[0-9a-f-]{36}$/.test(userId)) return null;
  const want = Buffer.from(sign(secret, userId, kind));
  return given.length === want.length && timingSafeEqual(given, want) ? { userId, kind: kind as NotifyKind } : null;
}
