import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Runtime } from '../runtime';

/**
 * What the listener knows of a request that Next's route handlers need: the client's address,
 * resolved from the socket (and TRUST_PROXY's X-Forwarded-For) before the request enters Next.
 * It travels with the request's async context, not in a header a client could send.
 */
export interface RequestContext {
  ip: string;
  /** The runtime of the service whose listener took the request (lib/runtime.ts's getRuntime). */
  rt: Runtime;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` (Next's handler of one request) with the request's context. */
export const withRequestContext = <T>(ctx: RequestContext, fn: () => T): T => storage.run(ctx, fn);

/** The context of the request being handled, if it entered through server.ts's listener. */
export const requestContext = (): RequestContext | undefined => storage.getStore();
