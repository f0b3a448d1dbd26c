import 'server-only';
import type { z } from 'zod';
import { findShareOwnedBy } from '@/db/queries/shares';
import { recordBrowserPoster } from '@/db/queries/previews';
import type { Principal } from '../auth/principal';
import { managedBy } from '../auth/owner';
import { MAX_BROWSER_POSTER_BYTES, type sharePosterSchema } from '../contract/shares';
import { AppError, notFound } from '../errors';
import { pathKey } from '../paths/relative-path';
import type { Runtime } from '../runtime';
import { derivedKey } from '../storage/keys';
import { isVideoType, toJpeg } from './previews/make';

/**
 * POST /api/shares/:id/poster — the frame an uploader's browser captured of a video of its own
 * share (docs/link-previews.md), for a server without ffmpeg: decoded and re-encoded by sharp
 * (so only a real image, at most 1280 px, without metadata, is ever stored or served), stored
 * beside the video under the share's prefix and recorded while the video still has no poster.
 * Another member's share is "not found"; a video with its poster already, or a file that is not
 * a video, is 409.
 */
export async function setBrowserPoster(rt: Runtime, principal: Principal, id: string, input: z.infer<typeof sharePosterSchema>): Promise<void> {
  const bytes = Buffer.from(input.image, 'base64');
  if (bytes.length === 0 || bytes.length > MAX_BROWSER_POSTER_BYTES) throw new AppError('invalid_request', 'The frame must be an image of at most 1.5 MB');
  const share = await findShareOwnedBy(rt.db, managedBy(principal), id);
  if (!share) throw notFound('No such share');
  const key = pathKey(input.path);
  const item = share.items.find((it) => it.pathKey === key);
  if (!item) throw notFound(`This share has no file "${input.path}"`);
  if (!isVideoType(item.contentType)) throw new AppError('conflict', `"${input.path}" is not a video`);
  if (item.previewState !== 'browser' && item.previewState !== 'pending') throw new AppError('conflict', `"${input.path}" has its poster already`);
  let picture;
  try {
    picture = await toJpeg(bytes, 1280);
  } catch {
    throw new AppError('invalid_request', 'image is not a JPEG, PNG or WebP picture');
  }
  const stored = derivedKey(share.group.id, item.id, 'browser');
  await rt.storage.put(stored, picture.jpeg, { size: picture.jpeg.length, contentType: 'image/jpeg' });
  const durationMs = input.duration_ms ?? null;
  if (!(await recordBrowserPoster(rt.db, item.id, { key: stored, width: picture.width, height: picture.height, durationMs }))) {
    await rt.storage.delete(stored).catch(() => {});
    throw new AppError('conflict', `"${input.path}" has its poster already`);
  }
}
