import 'server-only';
import { notFound } from '../../errors';
import { PREVIEW_PARAM, previewCookieName, previewGranted } from '../../hosting/preview-access';
import type { Runtime } from '../../runtime';
import { parseCookies, serializeCookie } from '../cookies';
import type { FastReply, FastRequest } from '../fast';
import { isSecureHostedRequest } from '../origin';

/**
 * Null when the request may see the preview of `deployId`; the 303 that keeps a grant from the
 * link; or a 404 (thrown). `prefix` is /p/<slug>@<deploy>, `pathname` the request's path.
 */
export async function gatePreview(rt: Runtime, req: FastRequest, at: { slug: string; deployId: string; prefix: string; pathname: string; query: string }): Promise<FastReply | null> {
  const params = new URLSearchParams(at.query);
  const fromLink = params.get(PREVIEW_PARAM);
  if (fromLink === null) {
    if (await previewGranted(rt, at.slug, at.deployId, parseCookies(req.header('cookie'))[previewCookieName(at.deployId)])) return null;
    throw notFound();
  }
  if (!(await previewGranted(rt, at.slug, at.deployId, fromLink))) throw notFound();
  params.delete(PREVIEW_PARAM);
  const rest = params.toString();
  const cookie = serializeCookie(previewCookieName(at.deployId), fromLink, {
    maxAge: Number(fromLink.split('.')[0]) - Math.floor(Date.now() / 1000),
    secure: isSecureHostedRequest(rt.env, req),
    path: at.prefix,
  });
  return { status: 303, headers: { Location: `${at.pathname}${rest ? `?${rest}` : ''}`, 'Set-Cookie': cookie, 'Cache-Control': 'no-store' }, body: null };
}
