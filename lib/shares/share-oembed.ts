import 'server-only';
import type { z } from 'zod';
import type { OembedQuery } from '../contract/oembed';
import type { oembedSchema } from '../contract/responses';
import { AppError, notFound } from '../errors';
import type { Runtime } from '../runtime';
import { guestAccess } from './access';
import { GENERIC_CARD, shareCard, shareCardPath } from './link-preview';
import { pictureOf, posterPath } from './share-picture';

const PAGE = /^\/f\/([A-Za-z0-9]{1,64})\/?$/;

/**
 * GET /api/oembed?url=<share page>&format=json — the card of one of this service's /f/<id> pages
 * (oEmbed 1.0, type "link"), from the same description as the page's tags: generic (no name,
 * size, count or thumbnail) for a locked or expired share; 404 for another site's URL, another
 * path of ours, a missing or an offline share. Only JSON (400 for another format).
 */
export async function shareOembed(rt: Runtime, origin: string, query: OembedQuery): Promise<z.infer<typeof oembedSchema>> {
  let url: URL;
  try {
    url = new URL(query.url);
  } catch {
    throw new AppError('invalid_request', 'url must be an absolute URL of a share page');
  }
  const id = PAGE.exec(url.pathname)?.[1];
  if (url.origin !== origin || !id || url.username || url.password) throw notFound('Not a share page of this service');
  const access = await guestAccess(rt, id, {});
  if (access.state === 'missing') throw notFound('This share does not exist or is offline');
  const card =
    access.state === 'open' || access.state === 'exhausted'
      ? shareCard(rt.env, { state: access.state, group: access.share.group, paths: access.share.items.map((it) => it.relativePath) })
      : GENERIC_CARD;
  const base = { version: '1.0', type: 'link', title: card.title, description: card.description, provider_name: 'htmls', provider_url: `${origin}/`, cache_age: 300 } as const;
  if (card.generic || (access.state !== 'open' && access.state !== 'exhausted')) return base;
  // A one-file share's poster or thumbnail, as the page's og:image; else the drawn card.
  const only = access.share.items.length === 1 ? access.share.items[0] : null;
  const picture = only && pictureOf(only);
  if (only && picture) return { ...base, thumbnail_url: `${origin}${posterPath(id, only.relativePath)}`, thumbnail_width: picture.width, thumbnail_height: picture.height };
  return { ...base, thumbnail_url: `${origin}${shareCardPath(id)}`, thumbnail_width: 1200, thumbnail_height: 630 };
}
