import 'server-only';
import { AppError, notFound } from '../../errors';
import type { FastReply, FastRequest } from '../fast';
import { guestAccess } from '../../shares/access';
import { guestPictureReply } from './guest-picture';
import { GENERIC_CARD, shareCard, type ShareCard } from '../../shares/link-preview';
import { cardEtag, renderCardPng, shareCardSvg } from '../../shares/share-card-image';

const BLANK_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const CARD_URL = /^\/f\/([A-Za-z0-9]{1,64})\.png(?:\?.*)?$/;

/**
 * GET/HEAD /f/<id>.png — the share's link-preview card (docs/link-previews.md): 1200×630 PNG,
 * generic for a locked or expired share (no name, size or count), 404 for a missing or offline
 * one. It reads no object and counts no download. Cached by ETag for five minutes: a card that
 * turns generic (a password set) may show the old one that long in a cache that kept it.
 */
export function serveShareCard(req: FastRequest): Promise<FastReply> {
  return guestPictureReply(req, async (rt) => {
    const id = CARD_URL.exec(req.url)?.[1];
    if (!id) throw notFound();
    const access = await guestAccess(rt, id, {});
    if (access.state === 'missing') throw notFound('This share does not exist or is offline');
    const card: ShareCard =
      access.state === 'open' || access.state === 'exhausted'
        ? shareCard(rt.env, { state: access.state, group: access.share.group, paths: access.share.items.map((it) => it.relativePath) })
        : GENERIC_CARD;
    const svg = shareCardSvg(card);
    const etag = cardEtag(svg);
    return {
      headers: { 'Content-Type': 'image/png', 'Cache-Control': 'public, max-age=300', ETag: etag, 'X-Content-Type-Options': 'nosniff' },
      bytes: (headers) =>
        renderCardPng(svg, etag).catch((e: unknown) => {
          if (e instanceof AppError) throw e;
          // A renderer that cannot load or draw (a platform without its native module) costs the
          // card its picture, never the guest a 500: a blank pixel, not kept by any cache.
          console.error('[htmls] drawing a share card failed:', e);
          headers['Cache-Control'] = 'no-store';
          delete headers.ETag;
          return BLANK_PNG;
        }),
    };
  });
}
