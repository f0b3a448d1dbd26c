import 'server-only';
import { toErrorBody } from '../errors';
import { jsonReply, type FastReply, type FastRequest } from './fast';
import { localeOf } from './request-locale';
import { messagePage } from './password-page';
import { wantsJson } from './read-body';

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Password required',
  404: 'Not found',
  405: 'Method not allowed',
  410: 'Expired',
  413: 'Too large',
  416: 'Range not satisfiable',
  429: 'Too many attempts',
  502: 'Storage unavailable',
  503: 'Unavailable',
};

/** The contract's JSON error reply for anything thrown (its status and headers from toErrorBody). */
export function jsonErrorReply(err: unknown, extra: Record<string, string> = {}): FastReply {
  const { status, body, headers } = toErrorBody(err);
  return jsonReply(status, body, { ...headers, ...extra });
}

/** Errors on the fast paths: the contract's JSON for API clients, a small page for browsers. */
export function errorReply(err: unknown, req: FastRequest): FastReply {
  if (wantsJson(req)) return jsonErrorReply(err);
  const { status, body, headers } = toErrorBody(err);
  const page = messagePage(status, TITLES[status] ?? 'Error', body.error, body.code, localeOf((name) => req.header(name)));
  Object.assign(page.headers, headers);
  return page;
}
