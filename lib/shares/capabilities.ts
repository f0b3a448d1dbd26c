import 'server-only';
import { DIRECT_PART_SIZE, MAX_PART_RETRIES, MAX_SHARE_BYTES, MAX_SHARE_FILES } from '../contract/shares';
import type { Capabilities } from '../contract/upload-protocol';
import type { Runtime } from '../runtime';
import { directUploadsAllowed } from './direct-uploads';
import { ffmpegAvailable } from './previews/make';

/**
 * Direct mode when the store can presign (S3 with credentials), UPLOAD_MODE allows it, the
 * bucket's CORS rules let the site's origin PUT and read ETag, and the store passed the
 * presigned-copy probe; proxy mode otherwise.
 */
export async function capabilities(rt: Runtime, origin: string): Promise<Capabilities> {
  const { storage } = rt;
  const direct =
    rt.env.uploadMode === 'auto' &&
    storage.capabilities.presignedParts !== null &&
    storage.capabilities.bucketCors !== null &&
    (await storage.capabilities.bucketCors.allows(origin)) &&
    (await directUploadsAllowed(rt));
  return {
    mode: direct ? 'direct' : 'proxy',
    partSize: direct ? DIRECT_PART_SIZE : rt.env.proxyPartSize,
    parallel: direct ? 3 : 1,
    maxRetries: MAX_PART_RETRIES,
    maxFiles: MAX_SHARE_FILES,
    maxTotalBytes: MAX_SHARE_BYTES,
    videoPosters: (await ffmpegAvailable(rt.env.ffmpegPath)) ? 'server' : 'browser',
  };
}

export const partCountFor = (size: number, partSize: number) => Math.max(1, Math.ceil(size / partSize));

/** The exact size part `n` of a file must have: every part but the last is partSize. */
export function expectedPartSize(size: number, partSize: number, partNumber: number): number {
  const count = partCountFor(size, partSize);
  return partNumber < count ? partSize : size - (count - 1) * partSize;
}
