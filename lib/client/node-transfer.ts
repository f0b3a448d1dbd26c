/**
 * Node-side transfer helpers of the SDK: a streamed PUT of one byte range of a file, retries
 * with backoff, and the resume state file. No Next or React imports.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { ApiError } from './api';

export interface PartRange {
  file: string;
  start: number;
  /** Exclusive. */
  end: number;
}

/** A connection that moves no byte for this long is treated as dropped (and retried). */
const IDLE_TIMEOUT_MS = 120_000;

/**
 * PUT one byte range of a file with an exact Content-Length (S3 refuses chunked bodies), read
 * from disk as a stream: never more than a read buffer of the part in memory. `onBytes` sees
 * each chunk as it is handed to the socket.
 */
export function putRange(
  url: string,
  headers: Record<string, string>,
  range: PartRange,
  opts: { onBytes?: (n: number) => void; signal?: AbortSignal } = {},
): Promise<{ text: string; etag?: string }> {
  const length = range.end - range.start;
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    let settled = false;
    const fail = (e: ApiError) => {
      if (settled) return;
      settled = true;
      req.destroy();
      reject(e);
    };
    const req = (u.protocol === 'https:' ? https : http).request(u, { method: 'PUT', headers: { ...headers, 'Content-Length': String(length) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('error', () => fail(new ApiError(0, 'network_error', 'The connection dropped while uploading a part')));
      res.on('end', () => {
        if (settled) return;
        settled = true;
        if (res.statusCode! >= 200 && res.statusCode! < 300) return resolve({ text, etag: res.headers.etag });
        let code = 'http_error';
        let message = `A part upload failed (${res.statusCode})`;
        try {
          const d = JSON.parse(text) as { code?: string; error?: string };
          code = d.code ?? code;
          message = d.error ?? message;
        } catch {
          /* an S3 error is XML: keep the status */
        }
        reject(new ApiError(res.statusCode!, code, message, Number(res.headers['retry-after']) || undefined));
      });
    });
    req.setTimeout(IDLE_TIMEOUT_MS, () => fail(new ApiError(0, 'network_error', 'The connection stalled while uploading a part')));
    req.on('error', () => fail(new ApiError(0, 'network_error', 'The connection dropped while uploading a part')));
    if (opts.signal) {
      if (opts.signal.aborted) return fail(new ApiError(0, 'aborted', 'Upload cancelled'));
      opts.signal.addEventListener('abort', () => fail(new ApiError(0, 'aborted', 'Upload cancelled')), { once: true });
    }
    if (length === 0) return req.end();
    const body = createReadStream(range.file, { start: range.start, end: range.end - 1, highWaterMark: 1024 * 1024 });
    // A file that vanished or shrank is not a network problem: say so, and do not retry it.
    body.on('error', (e) => fail(new ApiError(-1, 'local_file_error', `Cannot read ${range.file}: ${e.message}`)));
    body.on('data', (c) => opts.onBytes?.(c.length));
    body.pipe(req);
  });
}

export const defaultBackoff = (attempt: number) => Math.min(30_000, 1000 * 2 ** (attempt - 1));

/** Whether a failure may go away by trying again: the network, a timeout, a limit, the server. */
export const isTransient = (e: unknown) =>
  !(e instanceof ApiError) || e.status === 0 || e.status === 408 || e.status === 429 || e.status >= 500;

/** `fn`, then up to `retries` more attempts after transient failures, waiting `backoff(n)` before the n-th. */
export async function retry<T>(retries: number, backoff: (n: number) => number, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (!isTransient(e) || attempt >= retries || signal?.aborted || (e instanceof ApiError && e.code === 'aborted')) throw e;
      const wait = e instanceof ApiError && e.retryAfter ? Math.max(e.retryAfter * 1000, backoff(attempt + 1)) : backoff(attempt + 1);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** Names the upload by the server and the files (path, size, modification time). */
export function fingerprint(baseUrl: string, files: { path: string; size: number; mtimeMs: number }[]): string {
  const h = createHash('sha256').update(baseUrl);
  for (const f of [...files].sort((a, b) => a.path.localeCompare(b.path))) h.update(`\n${f.path}\u0000${f.size}\u0000${Math.floor(f.mtimeMs)}`);
  return h.digest('hex').slice(0, 32);
}

export async function readState<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

export async function writeState(file: string, state: unknown) {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, JSON.stringify(state), { mode: 0o600 });
}

export const removeState = (file: string) => rm(file, { force: true });
