import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { findTicket, reserveDownload } from '@/db/queries/download-tickets';
import type { ShareGroupRow } from '@/db/schema';
import { AppError } from '../errors';
import { parseCookies, serializeCookie } from '../http/cookies';
import type { FastRequest } from '../http/fast';
import { isSecureRequest } from '../http/origin';
import type { Runtime } from '../runtime';

/**
 * Downloads of a share with a download limit (docs/downloads.md). A download is a guest's
 * retrieval of a whole item or ZIP, counted when it starts: the first GET of a client that
 * sends bytes of a target reserves one download atomically (db/queries/download-tickets.ts)
 * and a ticket, so N parallel downloads against a limit of 1 give bytes to exactly one. The
 * same client's later requests of that target (a resume, a player's seek, a second click)
 * carry the ticket and count nothing: by the `htmls_dl` cookie, or — for a range after byte 0
 * only — by address + User-Agent, so `curl -C -` without a cookie jar resumes. A request for
 * byte 0 without the cookie is always a new download, so no pattern of ranges assembles the
 * file more often than the limit allows. HEAD, 304, 412 and 416 send no bytes and reserve
 * nothing (lib/http/send-object.ts calls admit() only before a body).
 */

/** How long a reserved download can be resumed by its client. */
export const TICKET_SECONDS = 24 * 3600;
export const DOWNLOAD_COOKIE = 'htmls_dl';
const CLIENT_ID = /^[A-Za-z0-9_-]{22}$/;

export interface LimitedDownload {
  /** The client already holds a live ticket for this target (it may continue when exhausted). */
  held: boolean;
  /** Before the first body byte: passes with a ticket, else reserves one (410 when none is left). */
  admit(startsAtZero: boolean): Promise<Record<string, string | string[]>>;
}

/** The target a ticket is for: one item, or the ZIP of one folder ('' = the whole share). */
export const itemTarget = (itemId: string) => `item:${itemId}`;
export const zipTarget = (folder: string) => `zip:${folder}`;

/** The limited-download state of one request for one target; null when the share has no limit. */
export async function limitedDownload(
  rt: Runtime,
  req: FastRequest,
  group: ShareGroupRow,
  target: string,
  itemId: string | null,
): Promise<LimitedDownload | null> {
  if (group.maxDownloads === null) return null;
  const cookie = parseCookies(req.header('cookie'))[DOWNLOAD_COOKIE];
  const clientId = cookie && CLIENT_ID.test(cookie) ? cookie : null;
  const clientAddr = createHash('sha256')
    .update(`${req.ip}\n${req.header('user-agent') ?? ''}`)
    .digest('base64url')
    .slice(0, 32);
  const found = await findTicket(rt.db, { shareId: group.id, target, clientId, clientAddr });
  return {
    held: found !== null,
    async admit(startsAtZero): Promise<Record<string, string | string[]>> {
      // An address match continues a download after byte 0 only: a fresh byte 0 from a client
      // without the cookie is another download, even from the same address.
      if (found === 'cookie' || (found === 'address' && !startsAtZero)) return {};
      const id = clientId ?? randomBytes(16).toString('base64url');
      const expiresAt = new Date(Date.now() + TICKET_SECONDS * 1000);
      const ok = await reserveDownload(rt.db, { shareId: group.id, itemId, target, clientId: id, clientAddr, expiresAt });
      if (!ok) throw new AppError('download_limit', 'This share has reached its download limit');
      const secure = isSecureRequest(rt.env, req);
      return { 'Set-Cookie': serializeCookie(DOWNLOAD_COOKIE, id, { maxAge: TICKET_SECONDS, secure, path: `/f/${group.id}/` }) };
    },
  };
}

/**
 * Link-preview fetchers (chat apps, social sites, search engines): they never count. On a share
 * with a limit they get the share page instead of the bytes — a User-Agent is not proof, so
 * claiming to be one never yields a file without counting.
 */
const UNFURLERS =
  /Slackbot|Slack-ImgProxy|facebookexternalhit|Facebot|Twitterbot|Discordbot|WhatsApp|TelegramBot|LinkedInBot|SkypeUriPreview|Iframely|Embedly|redditbot|Applebot|Googlebot|bingbot|DuckDuckBot|Mattermost|vkShare|Pinterest|Mastodon|Bluesky|Zulip/i;

export const isUnfurler = (req: FastRequest): boolean => UNFURLERS.test(req.header('user-agent') ?? '');
