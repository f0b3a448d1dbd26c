/**
 * The upload engine's browser side: Blob slices as the byte source (nothing is read whole
 * into memory), fetch for the API's JSON and XMLHttpRequest for the parts (fetch cannot report
 * upload progress). The console (app/files) calls runShareUpload with these.
 */
import type { PutRequest, UploadSource, UploadTransport } from './upload-engine/types';
import { api, ApiError, consoleHeaders } from './api';
import { serverCode, type ApiErrorCode } from './error-codes';

export { SpeedMeter } from './upload-engine/progress';

export function blobSource(file: Blob, clientPath: string): UploadSource<Blob> {
  return { clientPath, size: file.size, contentType: file.type || undefined, slice: (start, end) => file.slice(start, end) };
}

export const browserTransport: UploadTransport<Blob> = {
  json: <T>(method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal) => api<T>(path, { method, body, signal }).catch(mapAbort),
  put: (req) => put(req),
};

/** The engine tells its own cancels apart; a fetch abort is just a dropped request to it. */
function mapAbort(e: unknown): never {
  if ((e as Error)?.name === 'AbortError') throw new ApiError(0, 'network_error', 'The request was interrupted');
  throw e;
}

/**
 * The engine's transport for a guest's upload to a file request: no session, the upload token
 * (once the init gave it) as the Bearer of every API call and proxy part.
 */
export function guestTransport(token: () => string | undefined): UploadTransport<Blob> {
  return {
    json: <T>(method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal) => api<T>(path, { method, body, signal, token: token() }).catch(mapAbort),
    put: (req) => put(req, () => ({ Authorization: `Bearer ${token() ?? ''}` })),
  };
}

/** One PUT with upload progress; its listener on the attempt's signal goes when it settles. */
function put(req: PutRequest<Blob>, apiHeaders: () => Record<string, string> = consoleHeaders): Promise<{ text: string; etag: string | null }> {
  return new Promise((resolve, reject) => {
    if (req.signal.aborted) return reject(new ApiError(0, 'network_error', 'The part upload was interrupted.'));
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', req.url);
    xhr.withCredentials = req.api && apiHeaders === consoleHeaders;
    for (const [k, v] of Object.entries({ ...req.headers, ...(req.api ? apiHeaders() : {}) })) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => req.onProgress(e.loaded);
    const onAbort = () => xhr.abort();
    req.signal.addEventListener('abort', onAbort, { once: true });
    const done = () => req.signal.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      done();
      if (xhr.status >= 200 && xhr.status < 300) return resolve({ text: xhr.responseText, etag: xhr.getResponseHeader('ETag') });
      let code: ApiErrorCode = 'http_error';
      let message = `Upload of a part failed (${xhr.status})`;
      try {
        const data = JSON.parse(xhr.responseText) as { code?: string; error?: string };
        code = serverCode(data.code);
        message = data.error ?? message;
      } catch {
        /* not JSON: an S3 XML error */
      }
      reject(new ApiError(xhr.status, code, message, Number(xhr.getResponseHeader('Retry-After')) || undefined));
    };
    xhr.onerror = () => {
      done();
      reject(new ApiError(0, 'network_error', 'The connection dropped while uploading a part.'));
    };
    xhr.onabort = () => {
      done();
      reject(new ApiError(0, 'network_error', 'The part upload was interrupted.'));
    };
    xhr.send(req.body);
  });
}
