import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { chargeTicket, findTicket, refundTicket, reserveDownload } from '@/db/queries/download-tickets';
import type { ShareGroupRow } from '@/db/schema';
import { AppError } from '../errors';
import { getServerSecret, type Runtime } from '../runtime';
import { hmac, safeEqual } from '../auth/crypto';
import unfurlers from './unfurlers.json';

/**
 * Downloads of a share with a download limit (docs/downloads.md). A download is a guest's
 * retrieval of a whole item or ZIP, counted when it starts: the first GET of a client that
 * sends bytes of a target reserves one download atomically (db/queries/download-tickets.ts)
 * and a ticket, so N parallel downloads against a limit of 1 give bytes to exactly one. The
 * same client's later requests of that target (a resume, a player's seek, a second click)
 * carry the ticket and count nothing: by the `htmls_dl` cookie, or — for a range after byte 0
 * only — by address + User-Agent, so `curl -C -` without a cookie jar resumes. A request for
 * byte 0 without the cookie is always a new download, so no pattern of ranges assembles the
 * file more often than the limit allows. The cookie is issued by the server only (random, with
 * a MAC under the server secret: a made-up value is no ticket), and a ticket is charged the
 * bytes it is sent, so one counted download yields about one file's worth (BYTES_FACTOR)
 * however it is resumed or passed on. HEAD, 304, 412 and 416 send no bytes and reserve
 * nothing (lib/http/send-object.ts calls admit() only before a body). The cookie itself is read
 * and written by the HTTP side (lib/http/guest/limited-download.ts): here a ticket is a value.
 */

/** How long a reserved download can be resumed by its client. */
export const TICKET_SECONDS = 24 * 3600;
export const DOWNLOAD_COOKIE = 'htmls_dl';
/** A ticket is `<22 random characters>.<22-character MAC>`: only this server makes one. */
const TICKET = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$/;
/**
 * What one counted download may send, as a multiple of the file's size (+ a little for
 * headers of multipart answers): room for retries and parallel ranges (`aria2c -x 8` asks
 * for the whole file on its first connection and then for the rest on seven others), not for
 * handing the ticket around. Past it the next response is a new download, counted anew.
 */
const BYTES_FACTOR = 2;
const BYTES_SLACK = 64 * 1024;

/** Who asks for a download: the address, the User-Agent and the ticket the client sent (its `htmls_dl` cookie). */
export interface DownloadClient {
  ip: string;
  userAgent: string | undefined;
  ticket: string | undefined;
}

export interface TicketedDownload {
  /** The client already holds a live ticket for this target (it may continue when exhausted). */
  held: boolean;
  /**
   * Before the first body byte of a response of `length` bytes: passes with a ticket that has
   * bytes left (charging them), else reserves a new download (410 when none is left). Returns
   * the new ticket the client is to keep (for DOWNLOAD_COOKIE), or null when it keeps its own.
   */
  admit(startsAtZero: boolean, length: number): Promise<string | null>;
  /** The activity key of the download this response belongs to (set by admit). */
  key(): string | null;
  /** After the response: gives back the bytes charged but not sent (a cut-off response). */
  settle(sent: number): void;
}

/** The target a ticket is for: one item, or the ZIP of one folder ('' = the whole share). */
export const itemTarget = (itemId: string) => `item:${itemId}`;
export const zipTarget = (folder: string) => `zip:${folder}`;

/** A short hash of the client's address and User-Agent (a ticket for clients without cookies). */
export function clientHash(client: Pick<DownloadClient, 'ip' | 'userAgent'>): string {
  return createHash('sha256')
    .update(`${client.ip}\n${client.userAgent ?? ''}`)
    .digest('base64url')
    .slice(0, 32);
}

const ticketMac = (secret: string, shareId: string, id: string) => hmac(secret, 'download-ticket', shareId, id).slice(0, 22);

/** A new ticket for this share: random, and bound to it by the server's MAC. */
function issueTicket(secret: string, shareId: string): string {
  const id = randomBytes(16).toString('base64url');
  return `${id}.${ticketMac(secret, shareId, id)}`;
}

/** The request's ticket cookie when this server issued it for this share; else null (a made-up value is no ticket). */
function validTicket(secret: string, shareId: string, value: string | undefined): string | null {
  const m = value ? TICKET.exec(value) : null;
  return m && safeEqual(m[2], ticketMac(secret, shareId, m[1])) ? value! : null;
}

/** The activity key of one ticket's download: a ticket renewed later is another download. */
const ticketKey = (t: { clientId: string; expiresAt: Date }, target: string) => `t:${t.clientId}:${target}:${t.expiresAt.getTime()}`;

/** The limited-download state of one request for one target (of `size` bytes); null when the share has no limit. */
export async function limitedDownload(
  rt: Runtime,
  client: DownloadClient,
  group: ShareGroupRow,
  target: string,
  itemId: string | null,
  size: number,
): Promise<TicketedDownload | null> {
  if (group.maxDownloads === null) return null;
  const secret = await getServerSecret(rt);
  const clientId = validTicket(secret, group.id, client.ticket);
  const clientAddr = clientHash(client);
  const found = await findTicket(rt.db, { shareId: group.id, target, clientId, clientAddr });
  const budget = BYTES_FACTOR * size + BYTES_SLACK;
  let current: { clientId: string; expiresAt: Date } | null = null;
  let charged = 0;
  return {
    held: found !== null,
    async admit(startsAtZero, length): Promise<string | null> {
      // An address match continues a download after byte 0 only: a fresh byte 0 from a client
      // without the cookie is another download, even from the same address.
      if (found && (found.by === 'cookie' || !startsAtZero)) {
        if (await chargeTicket(rt.db, { shareId: group.id, target, clientId: found.clientId }, length, budget)) {
          current = found;
          charged = length;
          return null;
        }
        // This ticket has had its file's worth: what follows is a new download.
      }
      const id = clientId ?? issueTicket(secret, group.id);
      const expiresAt = new Date(Date.now() + TICKET_SECONDS * 1000);
      const ok = await reserveDownload(rt.db, { shareId: group.id, itemId, target, clientId: id, clientAddr, expiresAt, bytesServed: length });
      if (!ok) throw new AppError('download_limit', 'This share has reached its download limit');
      current = { clientId: id, expiresAt };
      charged = length;
      return id;
    },
    key: () => (current ? ticketKey(current, target) : null),
    settle(sent) {
      const unsent = charged - sent;
      if (!current || unsent <= 0) return;
      refundTicket(rt.db, { shareId: group.id, target, clientId: current.clientId }, unsent).catch((e) =>
        console.error('[htmls] refunding a download ticket failed:', e),
      );
    },
  };
}

/**
 * Link-preview fetchers (chat apps, social sites, search engines): they never count. On a share
 * item or ZIP URL they get the share page (its card) instead of the bytes — a User-Agent is not proof, so
 * claiming to be one never yields a file without counting.
 */
const UNFURLERS = new RegExp(unfurlers.join('|'), 'i');

export const isUnfurlerAgent = (userAgent: string | undefined): boolean => UNFURLERS.test(userAgent ?? '');
