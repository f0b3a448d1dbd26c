import 'server-only';
import type { Principal } from '../auth/principal';
import type { Operation } from '../contract/operations';
import { AppError, toErrorBody } from '../errors';
import { getRuntime, type Runtime } from '../runtime';
import { jsonReply, type FastReply, type FastRequest } from './fast';
import { admitRequest, parseWith, type QueryInput } from './route';

export interface FastRouteContext<Q> {
  req: FastRequest;
  rt: Runtime;
  query: Q;
  principal: Principal | null;
}


/** The request headers admitRequest() reads (authentication and the same-origin check). */
const ADMISSION_HEADERS = ['authorization', 'cookie', 'origin', 'sec-fetch-site', 'host', 'x-forwarded-proto'];

/**
 * route() for the framework-free /api handlers that server.ts calls before Next (the byte
 * paths): the same admission steps (migrations, auth, origin check) and the same zod parsing
 * of the query, on a FastRequest. The body is left to the handler (it streams). An error is the
 * contract's JSON and closes the connection: the unread rest of a refused body is not worth
 * draining.
 */
export function fastRoute<O extends Operation>(op: O, handler: (ctx: FastRouteContext<QueryInput<O>>) => Promise<FastReply>) {
  return async (req: FastRequest): Promise<FastReply> => {
    try {
      if (req.method !== op.method) throw new AppError('method_not_allowed', `Use ${op.method}`, { Allow: op.method });
      const rt = await getRuntime();
      const headers = new Headers();
      for (const name of ADMISSION_HEADERS) {
        const v = req.header(name);
        if (v !== undefined) headers.set(name, v);
      }
      const url = `http://${req.header('host') ?? 'localhost'}${req.url}`;
      const principal = await admitRequest(rt, op, { method: req.method, url, headers, ip: req.ip });
      const query = (op.query ? parseWith(op.query, Object.fromEntries(new URL(url).searchParams)) : undefined) as QueryInput<O>;
      return await handler({ req, rt, query, principal });
    } catch (e) {
      const { status, body, headers } = toErrorBody(e);
      return jsonReply(status, body, { ...headers, Connection: 'close' });
    }
  };
}
