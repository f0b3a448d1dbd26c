import 'server-only';
import { AppError } from '../errors';
import { isLocale, LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, LOCALES } from '../i18n/locales';
import { serializeCookie } from './cookies';
import type { FastReply, FastRequest } from './fast';
import { isSecureHostedRequest, isSecureRequest } from './origin';
import { readSmallBody } from './read-body';
import { errorReply } from './reply-errors';
import { sameOriginPath } from '../same-origin-path';

/**
 * The endpoint of the no-script pages' language picker (lib/http/locale-picker.ts): sets the
 * picker's cookie (htmls_locale, as the script picker of Next's pages does) and sends the guest
 * back to `next` — a path of this origin only (lib/same-origin-path.ts). On the main origin it is POST /locale; on the
 * hosted origin POST /p/<slug>/locale (lib/http/guest/serve-hosted.ts), where a project answers
 * only GET and HEAD, so no site's own path is taken.
 *
 * A cross-site form can post here too (the pages send no Referer, and Origin is then `null`):
 * all it can do is change the language of its target's pages, and it is sent nowhere but a
 * path of the origin it posted to.
 */

/**
 * POST <action> `locale=<tag>&next=<path>` (a form): 303 to `next` (else `fallback`) with the
 * cookie set for this origin; an unknown language or a `next` that leaves the origin is refused
 * (400), never followed.
 */
export async function chooseLocale(req: FastRequest, opts: { hosted: boolean; fallback: string }): Promise<FastReply> {
  if (req.method !== 'POST') throw new AppError('method_not_allowed', 'Post the language picker’s form here', { Allow: 'POST' });
  const form = new URLSearchParams(await readSmallBody(req, 4 * 1024));
  const locale = form.get('locale');
  if (!isLocale(locale)) throw new AppError('invalid_request', `locale: expected one of ${LOCALES.join(', ')}`);
  const asked = form.get('next');
  const next = asked ? sameOriginPath(asked) : opts.fallback;
  if (!next) throw new AppError('invalid_request', 'next: expected a path of this site');
  const env = req.rt.env;
  const secure = opts.hosted ? isSecureHostedRequest(env, req) : isSecureRequest(env, req);
  return {
    status: 303,
    headers: {
      Location: next,
      'Cache-Control': 'no-store',
      'Set-Cookie': serializeCookie(LOCALE_COOKIE, locale, { maxAge: LOCALE_COOKIE_MAX_AGE, secure, path: '/', httpOnly: false }),
    },
    body: null,
  };
}

/** POST /locale: the main origin's picker endpoint (lib/http/routes.ts). */
export async function serveLocaleChoice(req: FastRequest): Promise<FastReply> {
  try {
    return await chooseLocale(req, { hosted: false, fallback: '/' });
  } catch (e) {
    return errorReply(e, req);
  }
}

