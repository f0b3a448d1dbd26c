import 'server-only';
import type { ShareItemRow } from '@/db/schema';
import type { FastReply, FastRequest } from '../fast';
import { evaluatePreconditions, ifRangeAllows, parseRanges } from '../range';
import type { Runtime } from '../../runtime';
import type { LimitedDownload } from './limited-download';

/**
 * DOWNLOAD_MODE=redirect (S3): a guest's GET of an item, after the same gate as a relayed one,
 * answers 302 to a presigned GET of the object, valid DOWNLOAD_URL_SECONDS, that answers with
 * the same Content-Disposition and Content-Type; the store then serves the bytes, Range and
 * resume included, and a resumed client comes back here for a fresh URL. What the server can
 * see is the redirect, so that is where a download counts (docs/downloads.md): with a limit the
 * ticket is reserved (or continued) as for a relayed download; without one a redirect for a
 * response that includes byte 0 counts once. Conditionals and unsatisfiable ranges are answered
 * here, as a relayed download would (304/412/416, nothing counted). HEAD is never redirected:
 * a presigned GET does not answer HEAD.
 */
export async function redirectDownload(
  rt: Runtime,
  req: FastRequest,
  item: ShareItemRow,
  headers: Record<string, string>,
  opts: { limited: LimitedDownload | null; count: (() => void) | null; etag: string; settle?: (sent: number, completed: boolean, covered: [number, number][]) => void },
): Promise<FastReply | null> {
  const d = rt.env.download;
  const presigned = rt.storage.capabilities.presignedGet;
  if (d.mode !== 'redirect' || req.method !== 'GET' || !presigned) return null;
  const size = Number(item.size);
  const header = (name: string) => req.header(name);
  // What would not send the file's bytes is left to the relay's answer, unchanged.
  if (evaluatePreconditions(req.method, header, { etag: opts.etag, lastModified: item.createdAt }) !== 'proceed') return null;
  const wanted = ifRangeAllows(header('if-range'), opts.etag, item.createdAt) ? parseRanges(header('range'), size) : ({ kind: 'full' } as const);
  if (wanted.kind === 'unsatisfiable') return null;
  const startsAtZero = wanted.kind === 'full' || wanted.ranges.some((r) => r.start === 0);
  const asked = wanted.kind === 'full' ? size : wanted.ranges.reduce((n, r) => n + r.end - r.start + 1, 0);
  // A ticket is charged what the redirect asks for: the store's answer is not seen here.
  const extra = opts.limited ? await opts.limited.admit(startsAtZero, asked) : {};
  if (!opts.limited && startsAtZero) opts.count?.();
  // The store sends the bytes: what a redirect asks for is taken as sent (activity, summed per
  // download, and share.downloaded once they reach the file's size).
  const covered: [number, number][] = wanted.kind === 'full' ? [[0, size]] : wanted.ranges.map((r) => [r.start, r.end + 1]);
  opts.settle?.(asked, wanted.kind === 'full' || wanted.ranges.some((r) => r.start === 0 && r.end === size - 1), covered);
  const signed = await presigned.get(item.storageKey, {
    contentDisposition: headers['Content-Disposition'],
    contentType: headers['Content-Type'],
    expiresInSeconds: d.urlSeconds,
  });
  return {
    status: 302,
    headers: {
      ...extra,
      Location: d.baseUrl ? onBase(signed, d.baseUrl) : signed,
      // Each redirect is a fresh, short-lived URL: no cache may keep one.
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'Content-Length': '0',
    },
    body: null,
  };
}

/** The presigned URL on DOWNLOAD_BASE_URL's origin (and path prefix): a CDN or bucket domain. */
export function onBase(signed: string, baseUrl: string): string {
  const u = new URL(signed);
  const b = new URL(baseUrl);
  return `${b.origin}${b.pathname.replace(/\/+$/, '')}${u.pathname}${u.search}`;
}
