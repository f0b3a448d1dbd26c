import 'server-only';
import type { ShareGroupRow } from '@/db/schema';
import type { Runtime } from '../../runtime';
import { DOWNLOAD_COOKIE, isUnfurlerAgent, limitedDownload, TICKET_SECONDS, type DownloadClient, type TicketedDownload } from '../../shares/download-tickets';
import { parseCookies, serializeCookie } from '../cookies';
import type { FastRequest } from '../fast';
import { isSecureRequest } from '../origin';

/**
 * The HTTP side of a limited share's downloads (lib/shares/download-tickets.ts decides and
 * counts): the client as its request shows it, and the ticket handed back as the `htmls_dl`
 * cookie on the share's path.
 */
export interface LimitedDownload extends Omit<TicketedDownload, 'admit'> {
  /** TicketedDownload.admit, answering the headers of the response (the new ticket's cookie). */
  admit(startsAtZero: boolean, length: number): Promise<Record<string, string | string[]>>;
}

/** The downloading client: address, User-Agent, and the ticket its cookie holds. */
export const downloadClientOf = (req: FastRequest): DownloadClient => ({
  ip: req.ip,
  userAgent: req.header('user-agent'),
  ticket: parseCookies(req.header('cookie'))[DOWNLOAD_COOKIE],
});

/** A link-preview fetcher by its User-Agent: it gets the share page instead of the bytes. */
export const isUnfurler = (req: Pick<FastRequest, 'header'>): boolean => isUnfurlerAgent(req.header('user-agent'));

/** limitedDownload for this request; null when the share has no limit. */
export async function limitedDownloadOf(
  rt: Runtime,
  req: FastRequest,
  group: ShareGroupRow,
  target: string,
  itemId: string | null,
  size: number,
): Promise<LimitedDownload | null> {
  const ticketed = await limitedDownload(rt, downloadClientOf(req), group, target, itemId, size);
  if (!ticketed) return null;
  return {
    held: ticketed.held,
    key: () => ticketed.key(),
    settle: (sent) => ticketed.settle(sent),
    async admit(startsAtZero, length): Promise<Record<string, string | string[]>> {
      const issued = await ticketed.admit(startsAtZero, length);
      if (issued === null) return {};
      const secure = isSecureRequest(rt.env, req);
      return { 'Set-Cookie': serializeCookie(DOWNLOAD_COOKIE, issued, { maxAge: TICKET_SECONDS, secure, path: `/f/${group.id}/` }) };
    },
  };
}
