import 'server-only';
import { Readable } from 'node:stream';
import type { ShareItemRow } from '@/db/schema';
import { notFound } from '../../errors';
import type { FastReply, FastRequest } from '../fast';
import { previewKind } from '../../mime';
import { sendObject, sendRepresentation } from '../send-object';
import type { ByteRange, StorageDriver } from '../../storage/types';

/** A text preview: the first 4 KiB (the page shows them and "…"). */
export const TEXT_PREVIEW_BYTES = 4096;
/** The largest image a share with a download limit previews (it is shown whole). */
export const IMAGE_PREVIEW_BYTES = 8 * 1024 * 1024;
/** A media preview of a limited share reads at most this much at each end (and 1/8 of the file). */
const MEDIA_WINDOW_BYTES = 4 * 1024 * 1024;

/** What the page may preview of an item of a share with a download limit. */
export function limitedPreviewable(contentType: string, size: number): boolean {
  const kind = previewKind(contentType);
  if (kind === 'image') return size <= IMAGE_PREVIEW_BYTES;
  return kind === 'text' || kind === 'video' || kind === 'audio';
}

/**
 * `/f/<id>/<path>?preview` — what the share page's previews read. It never counts as a
 * download. Without a download limit it is the item itself (a video plays and seeks). With a
 * limit it is bounded so that no pattern of preview requests yields the file: a text file's
 * first 4 KiB; an image up to 8 MiB (shown whole: owners are told); for video and audio the
 * first and last min(4 MiB, size/8) bytes — where a player finds its metadata and first frame
 * (an MP4's moov is at one end or the other) — with zeros between; PDFs and larger images have
 * no preview.
 */
export function servePreview(
  req: FastRequest,
  storage: StorageDriver,
  item: ShareItemRow,
  limited: boolean,
  headers: Record<string, string>,
): Promise<FastReply> {
  const kind = previewKind(item.contentType);
  if (!kind) throw notFound('This file has no preview');
  const size = Number(item.size);
  const etag = item.etag.startsWith('"') ? item.etag : `"${item.etag}"`;
  const whole = { storageKey: item.storageKey, size, etag, lastModified: item.createdAt, headers };
  if (!limited) return sendObject(req, storage, whole);
  if (!limitedPreviewable(item.contentType, size)) throw notFound('This file has no preview in a share with a download limit');
  if (kind === 'image') return sendObject(req, storage, whole);
  if (kind === 'text') {
    const n = Math.min(size, TEXT_PREVIEW_BYTES);
    return sendRepresentation(req, {
      size: n,
      etag: `"${etag.slice(1, -1)}-p${n}"`,
      lastModified: item.createdAt,
      headers,
      open: (range) => (n === 0 ? Buffer.alloc(0) : storage.get(item.storageKey, range ?? { start: 0, end: n - 1 }).then((g) => g.body)),
    });
  }
  const w = Math.min(MEDIA_WINDOW_BYTES, Math.floor(size / 8));
  return sendRepresentation(req, {
    size,
    etag: `"${etag.slice(1, -1)}-w${w}"`,
    lastModified: item.createdAt,
    headers,
    open: (range) => windowed(storage, item.storageKey, size, w, range ?? { start: 0, end: size - 1 }),
  });
}

const ZEROS = Buffer.alloc(64 * 1024);

/**
 * The bytes of `range` of a media preview: the object's own inside the first and last `w`
 * bytes, zeros between. The preview keeps the file's size, so a player's ranges (and its
 * read-ahead past a window) are all answered as usual, while only the windows carry content.
 */
export function windowed(storage: StorageDriver, key: string, size: number, w: number, range: ByteRange): Readable {
  const segments: { start: number; end: number; real: boolean }[] = [];
  const add = (start: number, end: number, real: boolean) => {
    const a = Math.max(start, range.start);
    const b = Math.min(end, range.end);
    if (a <= b) segments.push({ start: a, end: b, real });
  };
  add(0, w - 1, true);
  add(w, size - w - 1, false);
  add(Math.max(w, size - w), size - 1, true);
  return Readable.from(
    (async function* () {
      for (const seg of segments) {
        if (seg.real) {
          yield* (await storage.get(key, { start: seg.start, end: seg.end })).body;
          continue;
        }
        for (let left = seg.end - seg.start + 1; left > 0; left -= ZEROS.length) yield ZEROS.subarray(0, Math.min(left, ZEROS.length));
      }
    })(),
  );
}
