import 'server-only';
import { setShareItemCrc32 } from '@/db/queries/shares';
import { AppError, notFound } from '../../errors';
import type { FastReply, FastRequest } from '../fast';
import { sendRepresentation } from '../send-object';
import { contentDisposition } from '../content-disposition';
import { errorReply } from '../reply-errors';
import { decodeUrlPath } from '../../paths/relative-path';
import { assertMigrated } from '../../runtime';
import { guestAccess, refusal } from '../../shares/access';
import { gateReply } from './share-gate';
import { parseCookies } from '../cookies';
import { countDownload } from '../../shares/count-downloads';
import { downloadRecorder } from '../../shares/download-activity';
import { zipTarget } from '../../shares/download-tickets';
import { downloadClientOf, isUnfurler, limitedDownloadOf } from './limited-download';
import { planShareZip } from '../../shares/plan-share-zip';
import { knownCrcs, streamShareZip } from '../../shares/stream-share-zip';

const ZIP_URL = /^\/f\/([^/?]+)\/?\?(.*)$/;

/**
 * GET/HEAD /f/<id>/?zip[&folder=<path>] — every item of the share (or of one folder) as one
 * streamed STORE ZIP with an exact Content-Length, an ETag from the items, and RFC 9110
 * conditionals and ranges (lib/http/send-object.ts: 206/416/304/412, If-Range, multipart), so
 * browsers and `curl -C -` resume it. The guest gate is the
 * items' one: 404 missing/offline/uploading, 410 expired, 401 password page without the cookie,
 * 410 download_limit once max_downloads is reached. Without a limit a download through the last
 * byte counts once for the share (item null); with one, a download counts when it starts.
 */
export async function serveShareZip(req: FastRequest): Promise<FastReply> {
  try {
    const rt = req.rt;
    await assertMigrated(rt);
    const m = ZIP_URL.exec(req.url);
    const id = m ? decodeUrlPath(m[1]!) : null;
    if (!m || !id) throw notFound();
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new AppError('method_not_allowed', 'Only GET and HEAD are allowed here', { Allow: 'GET, HEAD' });
    }
    const access = await guestAccess(rt, id, parseCookies(req.header('cookie')));
    // Not open: the password page, or the refusal thrown; out of downloads is decided below.
    if (access.state !== 'open' && access.state !== 'exhausted') return gateReply(access, id, req)!;
    const folder = (new URLSearchParams(m[2]).get('folder') ?? '').replace(/^\/+|\/+$/g, '');
    const zip = planShareZip({ id, note: access.share.group.note }, access.share.items, folder || null);
    if (!zip) throw notFound('No file in this folder');
    const { group } = access.share;
    // A chat app unfurling a pasted link gets the page (its card), never the file's bytes.
    if (isUnfurler(req)) return { status: 303, headers: { Location: `/f/${id}`, 'Content-Length': '0' }, body: null };
    // With a limit: a ticket per client and folder (lib/shares/download-tickets.ts).
    const limited = await limitedDownloadOf(rt, req, group, zipTarget(folder), null, zip.plan.total);
    if (access.state === 'exhausted' && !limited?.held) throw refusal('exhausted');

    const saveCrc = (item: { id: string }, crc: number) => {
      setShareItemCrc32(rt.db, item.id, crc).catch((e) => console.error('[htmls] caching a CRC-32 failed:', e));
    };
    // One CRC list per request: the parts of a multi-range request share what they learn.
    const crcs = knownCrcs(zip);
    return await sendRepresentation(req, {
      size: zip.plan.total,
      etag: zip.etag,
      lastModified: zip.lastModified,
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': contentDisposition(zip.fileName, 'attachment'),
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'private, no-cache',
        'Referrer-Policy': 'no-referrer',
      },
      open: (range) => streamShareZip(rt.storage, zip, range ?? { start: 0, end: zip.plan.total - 1 }, crcs, saveCrc),
      admit: limited?.admit,
      // Without a limit a download is complete when the last byte went out (a resumed one
      // counts once, at its end); with one it counted when it started.
      onComplete: limited || isUnfurler(req) ? undefined : () => countDownload(rt, id, null),
      onSettle: isUnfurler(req) ? undefined : downloadRecorder(rt, downloadClientOf(req), id, null, zipTarget(folder), zip.plan.total, limited),
    });
  } catch (e) {
    return errorReply(e, req);
  }
}
