/**
 * The upload engine's Node side: file ranges as the byte source, http(s).request as the
 * transport. A part is streamed from disk with an exact Content-Length (S3 refuses chunked
 * bodies): never more than a read buffer of it in memory (a part no larger than that buffer is
 * read in one call and sent whole). No Next or React imports.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { PutRequest, UploadSource, UploadTransport } from '../upload-engine/types';
import { ApiError } from '../api';
import { serverCode, type ApiErrorCode } from '../error-codes';

export interface FileRange {
  file: string;
  start: number;
  /** Exclusive. */
  end: number;
}

export function fileSource(file: string, clientPath: string, size: number): UploadSource<FileRange> {
  return { clientPath, size, slice: (start, end) => ({ file, start, end }) };
}

/**
 * One call of the API: the Bearer token when there is one, the body as JSON (a FormData is sent
 * as it is, multipart), "Could not reach …" when the server cannot be reached, then the answer
 * parsed by parseResponse.
 */
export async function apiRequest<T>(baseUrl: string, token: string | undefined, method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const form = body instanceof FormData;
  let res: Response;
  try {
    res = await fetch(baseUrl + path, {
      method,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined && !form ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      signal,
    });
  } catch {
    throw new ApiError(0, 'network_error', `Could not reach ${baseUrl}`);
  }
  return parseResponse<T>(res);
}

/** `token` may be a function: a guest's upload token is known only once the init has answered. */
export function nodeTransport(baseUrl: string, token: string | undefined | (() => string | undefined)): UploadTransport<FileRange> {
  const current = typeof token === 'function' ? token : () => token;
  const auth = (): Record<string, string> => {
    const t = current();
    return t ? { Authorization: `Bearer ${t}` } : {};
  };
  // Small parts read ahead (prefetch), by range; at most PREFETCHED of them, each ≤ READ_BUFFER.
  const ahead = new Map<string, Promise<Buffer>>();
  const rangeKey = (r: FileRange) => `${r.start}:${r.end}:${r.file}`;
  return {
    json: <T>(method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal) => apiRequest<T>(baseUrl, current(), method, path, body, signal),
    put: (req) => {
      const key = rangeKey(req.body);
      const early = ahead.get(key);
      ahead.delete(key);
      // A read ahead that failed is tried again: the file may be readable now.
      const read = early ? () => early.catch(() => readRange(req.body, req.length)) : undefined;
      return putRange(req.api ? baseUrl + req.url : req.url, req.api ? { ...auth(), ...req.headers } : req.headers, req, read);
    },
    prefetch: (range, length) => {
      if (length === 0 || length > READ_BUFFER) return;
      const key = rangeKey(range);
      if (ahead.has(key)) return;
      const read = readRange(range, length);
      read.catch(() => {});
      ahead.set(key, read);
      if (ahead.size > PREFETCHED) ahead.delete(ahead.keys().next().value!);
    },
    dropPrefetched: () => ahead.clear(),
  };
}

/** Parts read ahead and not yet sent: one per worker is all a prefetch one part ahead needs. */
const PREFETCHED = 4;

/**
 * One PUT of a file range. Every listener it adds (on the attempt's signal, on the file) is
 * gone when it settles, and a failed attempt closes its file.
 */
function putRange(url: string, headers: Record<string, string>, req: PutRequest<FileRange>, readAhead?: () => Promise<Buffer>): Promise<{ text: string; etag: string | null }> {
  const { body: range, length, signal } = req;
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    let file: ReturnType<typeof createReadStream> | null = null;
    let settled = false;
    const settle = (e: ApiError | null, value?: { text: string; etag: string | null }) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (e) {
        file?.destroy();
        request.destroy();
        reject(e);
      } else resolve(value!);
    };
    const onAbort = () => settle(new ApiError(0, 'network_error', 'The part upload was interrupted'));
    const request = (u.protocol === 'https:' ? https : http).request(u, { method: 'PUT', headers: { ...headers, 'Content-Length': String(length) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('error', () => settle(new ApiError(0, 'network_error', 'The connection dropped while uploading a part')));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) return settle(null, { text, etag: (res.headers.etag as string | undefined) ?? null });
        settle(errorFrom(status, text, res.headers['retry-after']));
      });
    });
    request.on('error', () => settle(new ApiError(0, 'network_error', 'The connection dropped while uploading a part')));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    // A file that vanished or shrank is not a network problem: say so, and do not retry it.
    const unreadable = (why: string) => settle(new ApiError(-1, 'local_file_error', `Cannot read ${range.file}: ${why}`));
    if (length === 0) return void request.end();
    if (length <= READ_BUFFER) {
      // One read fills the stream's buffer anyway: read it and send it, without a stream.
      void (readAhead ? readAhead() : readRange(range, length)).then(
        (bytes) => {
          if (settled) return;
          req.onProgress(length);
          request.end(bytes);
        },
        (e: Error) => unreadable(e.message),
      );
      return;
    }
    file = createReadStream(range.file, { start: range.start, end: range.end - 1, highWaterMark: READ_BUFFER });
    let sent = 0;
    file.on('error', (e) => unreadable(e.message));
    file.on('data', (c) => req.onProgress((sent += c.length)));
    file.on('end', () => {
      if (sent < length) unreadable(`the file ended ${length - sent} bytes early`);
    });
    file.pipe(request);
  });
}

/** A file's read buffer: a part this small (a small file's only part) is read in one call. */
const READ_BUFFER = 1024 * 1024;

/** Exactly `length` bytes of the range; a file that shrank is an error, as in the stream. */
async function readRange(range: FileRange, length: number): Promise<Buffer> {
  const handle = await open(range.file, 'r');
  try {
    const bytes = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const { bytesRead } = await handle.read(bytes, got, length - got, range.start + got);
      if (bytesRead === 0) throw new Error(`the file ended ${length - got} bytes early`);
      got += bytesRead;
    }
    return bytes;
  } finally {
    await handle.close();
  }
}

function errorFrom(status: number, text: string, retryAfter: string | string[] | undefined): ApiError {
  let code: ApiErrorCode = 'http_error';
  let message = `Request failed (${status})`;
  try {
    const d = JSON.parse(text) as { code?: string; error?: string };
    code = serverCode(d.code);
    message = d.error ?? message;
  } catch {
    /* an S3 error is XML: keep the status */
  }
  return new ApiError(status, code, message, Number(retryAfter) || undefined);
}

async function parseResponse<T>(res: Response): Promise<T> {
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  if (!res.ok) {
    const d = data as { code?: string; error?: string } | null;
    throw new ApiError(res.status, serverCode(d?.code), d?.error ?? `Request failed (${res.status})`, Number(res.headers.get('Retry-After')) || undefined);
  }
  return data as T;
}
