import 'server-only';
import { shareUnlockCookie } from '../../auth/unlock-cookie';
import { unlockWithPassword } from '../unlock-with-password';
import { AppError, notFound } from '../../errors';
import { contentDisposition } from '../content-disposition';
import { type FastReply, type FastRequest } from '../fast';
import { isActiveType } from '../../mime';
import { errorReply } from '../reply-errors';
import { sendObject } from '../send-object';
import { decodeUrlPath } from '../../paths/relative-path';
import { assertMigrated, type Runtime } from '../../runtime';
import { isSecureRequest } from '../origin';
import { guestGroupAccess, guestItemAccess, refusal, shareSubject } from '../../shares/access';
import { gateReply } from './share-gate';
import { parseCookies } from '../cookies';
import { countDownload } from '../../shares/count-downloads';
import { downloadRecorder } from '../../shares/download-activity';
import { itemTarget } from '../../shares/download-tickets';
import { downloadClientOf, isUnfurler, limitedDownloadOf } from './limited-download';
import { redirectDownload } from './redirect-download';
import { servePreview } from './serve-preview';

const URL_PATTERN = /^\/f\/([^/]+)(?:\/(.*))?$/;

/** /f/<id>/<path> (the bytes) and POST /f/<id>/unlock, without the framework. */
export async function serveShareItem(req: FastRequest): Promise<FastReply> {
  try {
    return await handle(req.rt, req);
  } catch (e) {
    return errorReply(e, req);
  }
}

/**
 * The /f/<id> page's gate on the fast path: answers 404, 410 and the 401 password page itself
 * (a page component cannot choose those statuses) and returns null when the page may render.
 */
export async function gateSharePage(req: FastRequest): Promise<FastReply | null> {
  try {
    const rt = req.rt;
    await assertMigrated(rt);
    const { id } = parse(req.url);
    if (req.method !== 'GET' && req.method !== 'HEAD') return null;
    const access = await guestGroupAccess(rt, id, parseCookies(req.header('cookie')));
    if (access.state === 'missing') throw notFound('This share does not exist or is offline');
    // Out of downloads: the page renders and says so (its buttons explain; previews still work).
    return access.state === 'exhausted' ? null : gateReply(access, id, req);
  } catch (e) {
    return errorReply(e, req);
  }
}

function parse(url: string): { id: string; rest: string | undefined; query: URLSearchParams } {
  const q = url.indexOf('?');
  const pathname = q < 0 ? url : url.slice(0, q);
  const m = URL_PATTERN.exec(pathname);
  const id = m ? decodeUrlPath(m[1]) : null;
  if (!m || !id) throw notFound();
  return { id, rest: m[2], query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)) };
}

async function handle(rt: Runtime, req: FastRequest): Promise<FastReply> {
  await assertMigrated(rt);
  const { id, rest, query } = parse(req.url);
  if (req.method === 'POST') {
    if (rest === 'unlock') return unlock(rt, req, id);
    throw new AppError('method_not_allowed', 'Only GET and HEAD are allowed here', { Allow: 'GET, HEAD' });
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new AppError('method_not_allowed', 'Only GET and HEAD are allowed here', { Allow: 'GET, HEAD' });
  }
  const path = rest ? decodeUrlPath(rest) : null;
  // One indexed query for the share and this item (share_items_group_relative_path_key); an
  // undecodable path matches no item but still meets the gate first (401/410 before 404).
  const { access, item } = await guestItemAccess(rt, id, path ?? '', parseCookies(req.header('cookie')));
  // A share out of downloads still shows its page and previews; its bytes go only to a client
  // continuing a download it holds a ticket for (below).
  const refused = access.state === 'exhausted' ? null : gateReply(access, id, req);
  if (refused) return refused;
  if (access.state === 'missing' || !item) throw notFound();
  const { group } = access.share;

  const active = isActiveType(item.contentType);
  const name = item.relativePath.split('/').pop()!;
  const headers: Record<string, string> = {
    'Content-Type': item.contentType,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, no-cache',
    'Referrer-Policy': 'no-referrer',
  };
  if (query.has('preview')) {
    headers['Content-Disposition'] = contentDisposition(name, 'inline');
    return servePreview(req, rt.storage, item, group.maxDownloads !== null, headers);
  }
  // A chat app unfurling a pasted link gets the page (its card), never the file's bytes.
  if (isUnfurler(req)) return { status: 303, headers: { Location: `/f/${id}`, 'Content-Length': '0' }, body: null };
  const limited = await limitedDownloadOf(rt, req, group, itemTarget(item.id), item.id, Number(item.size));
  if (access.state === 'exhausted' && !limited?.held) throw refusal('exhausted');

  const download = query.get('download') === '1' || active;
  headers['Content-Disposition'] = contentDisposition(name, download ? 'attachment' : 'inline');
  // Member content never runs script on our origin, even if a browser ignored the attachment.
  if (active) headers['Content-Security-Policy'] = 'sandbox';
  const etag = item.etag.startsWith('"') ? item.etag : `"${item.etag}"`;
  // With a limit a download counts when it starts (its ticket); without one when a response
  // reaches the last byte (HEAD never reaches this; a link preview never counts).
  const count = limited || isUnfurler(req) ? null : () => countDownload(rt, id, item.id);
  // The activity log and share.downloaded: every guest response but a link preview's, summed
  // per download.
  const settle = isUnfurler(req) ? undefined : downloadRecorder(rt, downloadClientOf(req), id, item.relativePath, itemTarget(item.id), Number(item.size), limited);
  // DOWNLOAD_MODE=redirect: the store serves the bytes (null: answered here, as relayed).
  const redirect = await redirectDownload(rt, req, item, headers, { limited, count, etag, settle });
  if (redirect) return redirect;
  return sendObject(req, rt.storage, {
    storageKey: item.storageKey,
    size: Number(item.size),
    etag,
    lastModified: item.createdAt,
    headers,
    admit: limited?.admit,
    onComplete: count ?? undefined,
    onSettle: settle,
  });
}

/** POST /f/:id/unlock — form (303 to the share) or JSON (200 + cookie); 401 when wrong. */
function unlock(rt: Runtime, req: FastRequest, id: string): Promise<FastReply> {
  return unlockWithPassword(rt, req, async () => {
    const access = await guestGroupAccess(rt, id, {});
    if (access.state === 'missing' || access.state === 'expired') throw refusal(access.state);
    const target = `/f/${id}`;
    return {
      subject: { ...shareSubject(access.share), passwordHash: access.share.group.passwordHash },
      cookie: { name: shareUnlockCookie(id), path: target, secure: isSecureRequest(rt.env, req) },
      page: { subject: 'share', action: `${target}/unlock` },
      next: target,
    };
  });
}
