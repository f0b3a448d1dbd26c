import 'server-only';
import { operations } from '../../contract/operations';
import { AppError } from '../../errors';
import { jsonReply } from '../fast';
import { fastRoute } from '../fast-route';
import { resolveTokenCached } from '../../auth/session-cache';
import { uploadChunk } from '../../shares/upload-part';
import { uploaderFor } from '../../shares/uploader';

/**
 * PUT /api/shares/upload/chunk — a proxy-mode part streamed from the socket into the store.
 * server.ts calls this before Next (a Next handler moves bytes at a third of the speed): it has
 * no route file. A part of a 500-file share is one of 500 calls in a row with one session: its
 * lookup is cached, and dropped by whatever ends the session (lib/auth/session-cache.ts).
 */
export const handleChunk = fastRoute(operations.uploadChunk, async ({ req, rt, principal, uploadToken, query }) => {
  const length = req.header('content-length');
  if (length === undefined || !/^\d{1,15}$/.test(length) || req.header('transfer-encoding')) {
    throw new AppError('invalid_request', 'Send the part with a Content-Length header (no chunked encoding)');
  }
  if (!req.body) throw new AppError('invalid_request', 'The part has no body');
  return jsonReply(200, await uploadChunk(rt, await uploaderFor(rt, { principal, uploadToken }, query.groupId), query, req.body, Number(length)));
}, { resolveSession: resolveTokenCached });
