import { authenticate } from '../auth/guards';
import { chunkQuerySchema } from '../contract/shares';
import { AppError, toErrorBody } from '../errors';
import { jsonReply, type FastReply, type FastRequest } from '../http/fast';
import { isSameOriginRequest } from '../http/origin';
import { assertMigrated, getRuntime } from '../runtime';
import { uploadChunk } from './upload-part';

const FORWARDED = ['authorization', 'cookie', 'origin', 'sec-fetch-site', 'host', 'x-forwarded-proto'];

/**
 * PUT /api/shares/upload/chunk — a proxy-mode part streamed from the socket into the store.
 * server.ts calls this before Next (a Next handler moves bytes at a third of the speed); the
 * route handler at the same path calls it too under plain `next start`.
 */
export async function handleChunk(req: FastRequest): Promise<FastReply> {
  try {
    if (req.method !== 'PUT') throw new AppError('method_not_allowed', 'Use PUT', { Allow: 'PUT' });
    const rt = await getRuntime();
    await assertMigrated(rt);
    const headers = new Headers();
    for (const name of FORWARDED) {
      const v = req.header(name);
      if (v !== undefined) headers.set(name, v);
    }
    const { principal, viaCookie } = await authenticate(rt, headers, 'session');
    const url = `http://${req.header('host') ?? 'localhost'}${req.url}`;
    if (viaCookie && !isSameOriginRequest(rt.env, headers, url)) throw new AppError('forbidden', 'Cross-site request refused');
    const parsed = chunkQuerySchema.safeParse(Object.fromEntries(new URL(url).searchParams));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError('invalid_request', `${issue.path.join('.')}: ${issue.message}`);
    }
    const length = req.header('content-length');
    if (length === undefined || !/^\d{1,15}$/.test(length) || req.header('transfer-encoding')) {
      throw new AppError('invalid_request', 'Send the part with a Content-Length header (no chunked encoding)');
    }
    if (!req.body) throw new AppError('invalid_request', 'The part has no body');
    const result = await uploadChunk(rt, principal!, parsed.data, req.body, Number(length));
    return jsonReply(200, result);
  } catch (e) {
    const { status, body, headers } = toErrorBody(e);
    // The unread rest of a refused part is not worth draining: close the connection instead.
    return jsonReply(status, body, { ...headers, Connection: 'close' });
  }
}
