import 'server-only';
import { toErrorBody } from '../errors';
import { jsonReply, type FastReply, type FastRequest } from './fast';
import { localeOf } from '../i18n/messages';
import { messagePage } from './password-page';
import { wantsJson } from './read-body';

/** The contract's JSON error reply for anything thrown (its status and headers from toErrorBody). */
export function jsonErrorReply(err: unknown, extra: Record<string, string> = {}): FastReply {
  const { status, body, headers } = toErrorBody(err);
  return jsonReply(status, body, { ...headers, ...extra });
}

/** Errors on the fast paths: the contract's JSON for API clients, a small page for browsers. */
export function errorReply(err: unknown, req: FastRequest): FastReply {
  if (wantsJson(req)) return jsonErrorReply(err);
  const { status, body, headers } = toErrorBody(err);
  const page = messagePage(status, body.error, body.code, localeOf((name) => req.header(name)));
  Object.assign(page.headers, headers);
  return page;
}
