import 'server-only';

/**
 * What the listener knows of a request that Next's route handlers need: the client's address,
 * resolved from the socket (and TRUST_PROXY's X-Forwarded-For) before the request enters Next,
 * and the runtime of the service whose listener took it. It travels with the request's async
 * context, not in a header a client could send. Kept in lib/runtime.ts, whose getRuntime() and
 * getEnv() read it.
 */
export { requestContext, withRequestContext, type RequestContext } from '../runtime';
