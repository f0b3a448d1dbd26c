import 'server-only';
import { AppError } from '../errors';
import type { FastRequest } from './fast';

/** Reads a small body (a form or JSON) from the fast path, refusing anything over `limit`. */
export async function readSmallBody(req: FastRequest, limit: number): Promise<string> {
  if (!req.body) return '';
  const declared = Number(req.header('content-length') ?? '0');
  if (declared > limit) throw new AppError('body_too_large', `The body is larger than ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.body) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      req.body.destroy();
      throw new AppError('body_too_large', `The body is larger than ${limit} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

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
