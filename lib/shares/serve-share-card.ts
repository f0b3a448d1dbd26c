import 'server-only';
import { AppError, notFound } from '../errors';
import type { FastReply, FastRequest } from '../http/fast';
import { errorReply } from '../http/reply-errors';
import { assertMigrated, getRuntime } from '../runtime';
import { guestAccess } from './access';
import { GENERIC_CARD, shareCard, type ShareCard } from './link-preview';
import { cardEtag, renderCardPng, shareCardSvg } from './share-card-image';

const BLANK_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const CARD_URL = /^\/f\/([A-Za-z0-9]{1,64})\.png(?:\?.*)?$/;

/**
 * GET/HEAD /f/<id>.png — the share's link-preview card (docs/link-previews.md): 1200×630 PNG,
 * generic for a locked or expired share (no name, size or count), 404 for a missing or offline
 * one. It reads no object and counts no download. Cached by ETag for five minutes: a card that
 * turns generic (a password set) may show the old one that long in a cache that kept it.
 */
export async function serveShareCard(req: FastRequest): Promise<FastReply> {
  try {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new AppError('method_not_allowed', 'Only GET and HEAD are allowed here', { Allow: 'GET, HEAD' });
    }
    const rt = await getRuntime();
    await assertMigrated(rt);
    const id = CARD_URL.exec(req.url)?.[1];
    if (!id) throw notFound();
    const access = await guestAccess(rt, id, undefined);
    if (access.state === 'missing') throw notFound('This share does not exist or is offline');
    const card: ShareCard =
      access.state === 'open' || access.state === 'exhausted'
        ? shareCard(rt.env, { state: access.state, group: access.share.group, paths: access.share.items.map((it) => it.relativePath) })
        : GENERIC_CARD;
    const svg = shareCardSvg(card);
    const etag = cardEtag(svg);
    const headers: Record<string, string> = {
      'Content-Type': 'image/png',
      'Cache-Control': 'public, max-age=300',
      ETag: etag,
      'X-Content-Type-Options': 'nosniff',
    };
    const match = req.header('if-none-match');
    if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return { status: 304, headers, body: null };
    const png = await renderCardPng(svg, etag).catch((e: unknown) => {
      if (e instanceof AppError) throw e;
      // A renderer that cannot load or draw (a platform without its native module) costs the
      // card its picture, never the guest a 500: a blank pixel, not kept by any cache.
      console.error('[htmls] drawing a share card failed:', e);
      headers['Cache-Control'] = 'no-store';
      delete headers.ETag;
      return BLANK_PNG;
    });
    headers['Content-Length'] = String(png.length);
    return { status: 200, headers, body: req.method === 'HEAD' ? null : png };
  } catch (e) {
    return errorReply(e, req);
  }
}
