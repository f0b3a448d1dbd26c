import 'server-only';
import type { ShareItemRow } from '@/db/schema';
import { notFound } from '../errors';
import type { FastReply, FastRequest } from '../http/fast';
import { previewKind } from '../http/mime';
import { parseRanges } from '../http/range';
import { sendObject, sendRepresentation } from '../http/send-object';
import type { StorageDriver } from '../storage/types';

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
 * first 4 KiB; an image up to 8 MiB (shown whole: owners are told); for video and audio only
 * ranges inside the first and last min(4 MiB, size/8) bytes — where a player finds its
 * metadata (an MP4's moov is at one end or the other) — each clipped to its window; PDFs and
 * larger images have no preview.
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
  const clipped = clipToWindows(req.header('range'), size);
  // If-Range goes: a stale one would turn the clipped range into the whole file.
  const header = (name: string) => (name === 'range' ? clipped : name === 'if-range' ? undefined : req.header(name));
  return sendObject({ ...req, header }, storage, whole);
}

/**
 * The one range a media preview may answer, as a Range header: the request's first range (the
 * head window when it sent none), clipped to the window it starts in; one that starts between
 * the windows is unsatisfiable (416).
 */
export function clipToWindows(header: string | undefined, size: number): string {
  const w = Math.min(MEDIA_WINDOW_BYTES, Math.floor(size / 8));
  const wanted = parseRanges(header, size);
  if (wanted.kind === 'unsatisfiable' || w === 0) return `bytes=${size}-`;
  const { start, end } = wanted.kind === 'full' ? { start: 0, end: size - 1 } : wanted.ranges[0];
  if (start < w) return `bytes=${start}-${Math.min(end, w - 1)}`;
  if (start >= size - w) return `bytes=${start}-${end}`;
  return `bytes=${size}-`;
}
