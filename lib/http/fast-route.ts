import 'server-only';
import type { Principal } from '../auth/principal';
import type { Operation } from '../contract/operations';
import { AppError } from '../errors';
import { assertMigrated, type Runtime } from '../runtime';
import type { FastReply, FastRequest } from './fast';
import { jsonErrorReply } from './json-error-reply';
import { admitRequest, parseWith, uploadTokenFor, type PrincipalInput, type QueryInput } from './route';

export interface FastRouteContext<Q, P extends Principal | null = Principal | null> {
  req: FastRequest;
  rt: Runtime;
  query: Q;
  /** Typed by the operation's auth, as route()'s (PrincipalInput). */
  principal: P;
  /** A guest's upload token (operations marked `uploadToken`); principal is then null. */
  uploadToken?: string;
}


/**
 * route() for the framework-free /api handlers that server.ts calls before Next (the byte
 * paths): the same admission steps (migrations, auth, origin check) and the same zod parsing
 * of the query, on a FastRequest. The body is left to the handler (it streams). An error is the
 * contract's JSON and closes the connection: the unread rest of a refused body is not worth
 * draining.
 */
export function fastRoute<O extends Operation>(
  op: O,
  handler: (ctx: FastRouteContext<QueryInput<O>, PrincipalInput<O>>) => Promise<FastReply>,
  opts: { resolveSession?: (rt: Runtime, token: string) => Promise<Principal | null> } = {},
) {
  return async (req: FastRequest): Promise<FastReply> => {
    try {
      if (req.method !== op.method) throw new AppError('method_not_allowed', `Use ${op.method}`, { Allow: op.method });
      const rt = req.rt;
      const url = `http://${req.header('host') ?? 'localhost'}${req.url}`;
      const uploadToken = uploadTokenFor(op, req);
      const principal = uploadToken ? (await assertMigrated(rt), null) : await admitRequest(rt, { ...op, ...opts }, { method: req.method, url, headers: req, ip: req.ip });
      const query = (op.query ? parseWith(op.query, Object.fromEntries(new URL(url).searchParams)) : undefined) as QueryInput<O>;
      if (principal === null && !uploadToken && op.auth !== 'none' && op.auth !== 'optional') throw new AppError('unauthenticated', 'Sign in first');
      return await handler({ req, rt, query, principal: principal as PrincipalInput<O>, uploadToken });
    } catch (e) {
      return jsonErrorReply(e, { Connection: 'close' });
    }
  };
}
