import 'server-only';
import { toErrorBody } from '../errors';
import type { FastReply, FastRequest } from './fast';
import { jsonErrorReply } from './json-error-reply';
import { localeOf } from './locale-of';
import { LOCALE_CHOICE_PATH } from './locale-picker';
import { messagePage } from './password-page';
import { wantsJson } from './read-body';

/**
 * Errors on the fast paths: the contract's JSON for API clients, a small page for browsers.
 * `pickerAction`: where the page's language picker posts (the main origin's /locale unless told;
 * null: no picker, where this origin has no such endpoint); it comes back to a GET's own URL.
 */
export function errorReply(err: unknown, req: FastRequest, pickerAction: string | null = LOCALE_CHOICE_PATH): FastReply {
  if (wantsJson(req)) return jsonErrorReply(err);
  const { status, body, headers } = toErrorBody(err);
  const picker = pickerAction && (req.method === 'GET' || req.method === 'HEAD') ? { action: pickerAction, next: req.url } : null;
  const page = messagePage(status, body.error, body.code, localeOf((name) => req.header(name)), picker);
  Object.assign(page.headers, headers);
  return page;
}
