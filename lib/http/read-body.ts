import 'server-only';
import { AppError } from '../errors';
import type { FastRequest } from './fast';

/**
 * The one reader of a small body, for both kinds of request (a route handler's web stream, the
 * listener's Node stream): refuses a declared or actual length over `limit` without buffering
 * past it. Leaving the loop early cancels (web) or destroys (Node) the stream.
 */
export async function readLimited(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null | undefined,
  declaredLength: string | null | undefined,
  limit: number,
): Promise<string> {
  if (!body) return '';
  const tooLarge = () => new AppError('body_too_large', `The body is larger than ${limit} bytes`);
  if (Number(declaredLength ?? '0') > limit) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of 'getReader' in body ? webChunks(body) : body) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A web stream's chunks; leaving the loop early cancels the stream. */
async function* webChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
  }
}

/** Reads a small body (a form or JSON) from the fast path, refusing anything over `limit`. */
export const readSmallBody = (req: FastRequest, limit: number): Promise<string> => readLimited(req.body, req.header('content-length'), limit);

/** `{password, next}` from a form post or a JSON body; which one it was decides the answer. */
export async function readUnlockBody(req: FastRequest): Promise<{ json: boolean; password: string; next?: string }> {
  const type = (req.header('content-type') ?? '').toLowerCase();
  const text = await readSmallBody(req, 16 * 1024);
  if (type.startsWith('application/json')) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new AppError('invalid_request', 'The request body is not valid JSON');
    }
    const password = (data as { password?: unknown })?.password;
    if (typeof password !== 'string') throw new AppError('invalid_request', 'password: expected a string');
    return { json: true, password };
  }
  if (type.startsWith('multipart/')) throw new AppError('invalid_request', 'Send the password as a form or as JSON');
  const form = new URLSearchParams(text);
  return { json: false, password: form.get('password') ?? '', next: form.get('next') ?? undefined };
}

export const wantsJson = (req: FastRequest) =>
  (req.header('content-type') ?? '').toLowerCase().startsWith('application/json') ||
  (req.header('accept') ?? '').includes('application/json');
