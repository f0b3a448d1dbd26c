import 'server-only';
import { toErrorBody } from '../errors';
import { jsonReply, type FastReply } from './fast';

/**
 * The contract's JSON error reply for anything thrown (its status and headers from toErrorBody).
 * A module of its own, with no messages: the hosted front's worker (lib/http/hosted-front.ts)
 * and the listener guards answer with it and load no page, no language and no database.
 */
export function jsonErrorReply(err: unknown, extra: Record<string, string> = {}): FastReply {
  const { status, body, headers } = toErrorBody(err);
  return jsonReply(status, body, { ...headers, ...extra });
}
