import 'server-only';
import { AppError, notFound } from '../../errors';
import type { FastReply, FastRequest } from '../fast';
import { escapeHtml } from '../../escape-html';
import { errorReply } from '../reply-errors';
import { decodeUrlPath, encodeUrlPath } from '../../paths/relative-path';
import { assertMigrated } from '../../runtime';
import { isStorageNotFound } from '../../storage/types';
import { findShare } from '@/db/queries/shares';
import { guestItemAccess, refusal } from '../../shares/access';
import { gateReply } from './share-gate';
import { parseCookies } from '../cookies';
import { guestPictureReply } from './guest-picture';
import { pictureOf, playableVideo, posterPath } from '../../shares/share-picture';
import { isUnfurler } from './limited-download';

const POSTER_URL = /^\/f\/([^/?]+)\/([^?]+)\?/;
const PLAYER_URL = /^\/f\/([A-Za-z0-9]{1,64})\.player(?:\?.*)?$/;

/**
 * GET/HEAD /f/<id>/<path>?poster — an item's poster frame (a video) or thumbnail (an image), a
 * small JPEG made once after complete (./previews/worker.ts). Behind the share's own gate: a
 * locked share answers its password page (401) to anyone without its unlock cookie, an expired
 * one 410, an offline or missing one 404. It reads no bytes of the item and never counts as a
 * download. An unfurler gets it only while link previews are on (else 303 to the page, whose
 * card is generic).
 */
export function serveSharePoster(req: FastRequest): Promise<FastReply> {
  return guestPictureReply(req, async (rt) => {
    const m = POSTER_URL.exec(req.url);
    const id = m ? decodeUrlPath(m[1]) : null;
    if (!m || !id) throw notFound();
    const path = decodeUrlPath(m[2]);
    const { access, item } = await guestItemAccess(rt, id, path ?? '', parseCookies(req.header('cookie')));
    const refused = access.state === 'exhausted' ? null : gateReply(access, id, req);
    if (refused) return refused;
    if (access.state === 'missing' || !item) throw notFound();
    if (isUnfurler(req) && !rt.env.linkPreviews) return { status: 303, headers: { Location: `/f/${id}`, 'Content-Length': '0' }, body: null };
    if (!pictureOf(item)) throw notFound('This file has no poster or thumbnail (yet)');
    return {
      headers: {
        'Content-Type': 'image/jpeg',
        'X-Content-Type-Options': 'nosniff',
        // A password share's pictures stay in the unlocked guest's browser only.
        'Cache-Control': access.share.group.passwordHash ? 'private, no-cache' : 'public, max-age=300',
        'Referrer-Policy': 'no-referrer',
        ETag: `"pv-${item.id}-${item.previewAttempts}"`,
      },
      bytes: async () => {
        try {
          const { body } = await rt.storage.get(item.previewKey!);
          const chunks: Buffer[] = [];
          for await (const c of body as AsyncIterable<Buffer>) chunks.push(Buffer.from(c));
          return Buffer.concat(chunks);
        } catch (e) {
          if (isStorageNotFound(e)) throw notFound('This file has no poster or thumbnail');
          throw e;
        }
      },
    };
  });
}

/**
 * GET/HEAD /f/<id>.player — the page a chat app frames for twitter:player: the share's one
 * video, streamed from its `?preview` (never a download), with its poster. Only for an open share
 * without password or download limit holding a single video, with link previews on; anything
 * else is 404 (a locked share's player would have to ask for its password inside a frame). The
 * only page of the service a foreign page may frame: its policy says `frame-ancestors *`.
 */
export async function serveSharePlayer(req: FastRequest): Promise<FastReply> {
  try {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new AppError('method_not_allowed', 'Only GET and HEAD are allowed here', { Allow: 'GET, HEAD' });
    }
    const rt = req.rt;
    await assertMigrated(rt);
    const id = PLAYER_URL.exec(req.url)?.[1];
    if (!id) throw notFound();
    const share = await findShare(rt.db, id);
    const video = share && playableVideo(share.group, share.items);
    if (!share || !video || !rt.env.linkPreviews) throw notFound();
    const g = share.group;
    if (g.status !== 'online' || g.uploadState !== 'complete') throw notFound();
    if (g.expiresAt && g.expiresAt.getTime() <= Date.now()) throw refusal('expired');
    const src = `/f/${id}/${encodeUrlPath(video.relativePath)}?preview`;
    const poster = pictureOf(video) ? ` poster="${escapeHtml(posterPath(id, video.relativePath))}"` : '';
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(video.relativePath.split('/').pop()!)}</title>
<style>html,body{margin:0;height:100%;background:#000}video{display:block;width:100%;height:100%;object-fit:contain}</style></head>
<body><video controls playsinline preload="metadata" src="${escapeHtml(src)}"${poster}></video></body></html>`;
    const body = Buffer.from(html);
    return {
      status: 200,
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Length': String(body.length),
        'Content-Security-Policy': "default-src 'none'; media-src 'self'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors *",
        'Cache-Control': 'public, max-age=300',
        'Referrer-Policy': 'no-referrer',
        'X-Content-Type-Options': 'nosniff',
      },
      body: req.method === 'HEAD' ? null : body,
    };
  } catch (e) {
    return errorReply(e, req);
  }
}
