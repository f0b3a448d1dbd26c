import 'server-only';
import { AppError } from '../../errors';
import type { FastReply, FastRequest } from '../fast';
import { errorReply } from '../reply-errors';
import { assertMigrated, type Runtime } from '../../runtime';

/** A picture a share's guest (or an unfurler) may fetch: its headers, ETag included, and its bytes. */
export interface GuestPicture {
  headers: Record<string, string>;
  /**
   * The bytes, read only when the client's copy is not current. May change `headers` (a
   * stand-in picture that no cache should keep).
   */
  bytes(headers: Record<string, string>): Promise<Buffer>;
}

/**
 * GET/HEAD of a share's picture (the card /f/<id>.png, an item's ?poster): the method, the
 * runtime, then `pick`, which gates the share and gives either a reply of its own (a password
 * page, a redirect) or the picture; 304 for a current ETag, else the bytes with their length
 * (none for HEAD), and any error as the guest's error reply. It never counts a download.
 */
export async function guestPictureReply(req: FastRequest, pick: (rt: Runtime) => Promise<GuestPicture | FastReply>): Promise<FastReply> {
  try {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new AppError('method_not_allowed', 'Only GET and HEAD are allowed here', { Allow: 'GET, HEAD' });
    }
    const rt = req.rt;
    await assertMigrated(rt);
    const picked = await pick(rt);
    if ('status' in picked) return picked;
    const { headers } = picked;
    const match = req.header('if-none-match');
    const etag = headers.ETag;
    if (etag && match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return { status: 304, headers, body: null };
    const bytes = await picked.bytes(headers);
    headers['Content-Length'] = String(bytes.length);
    return { status: 200, headers, body: req.method === 'HEAD' ? null : bytes };
  } catch (e) {
    return errorReply(e, req);
  }
}
