/** The /htmls console's site upload: one multipart POST with upload progress and a 30-minute limit. */
import { endpoints } from '../contract/endpoints';
import { ApiError, consoleHeaders } from './api';
import { serverCode } from './error-codes';
import { appendSiteFields, type SiteFields } from './site-fields';
import type { ResponseOf } from '../contract/operations';

/** The project, the private entries a .zip had that were left out, and the build's warnings. */
export type SiteUploadResult = ResponseOf<'uploadSite'>;

export const HOSTED_UPLOAD_TIMEOUT_MS = 30 * 60 * 1000;

export interface SiteUploadOptions extends SiteFields {
  signal?: AbortSignal;
  onProgress?: (loaded: number, total: number) => void;
}

export function uploadSite(files: { file: Blob; path: string }[], opts: SiteUploadOptions = {}): Promise<SiteUploadResult> {
  const form = new FormData();
  appendSiteFields(form, opts);
  for (const f of files) form.append('file', f.file, f.path);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(endpoints.uploadSite.method, endpoints.uploadSite.path);
    for (const [k, v] of Object.entries(consoleHeaders())) xhr.setRequestHeader(k, v);
    xhr.timeout = HOSTED_UPLOAD_TIMEOUT_MS;
    xhr.upload.onprogress = (e) => opts.onProgress?.(e.loaded, e.total);
    const onAbort = () => xhr.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => opts.signal?.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      settle();
      let data: Partial<SiteUploadResult> & { code?: string; error?: string } = {};
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        /* an HTML error page from a proxy */
      }
      if (xhr.status === 201 && data.project) resolve({ project: data.project, skipped: data.skipped ?? [], warnings: data.warnings ?? [] });
      else reject(new ApiError(xhr.status, serverCode(data.code), data.error ?? `Upload failed (${xhr.status})`));
    };
    xhr.onerror = () => {
      settle();
      reject(new ApiError(0, 'network_error', 'The connection dropped during the upload.'));
    };
    xhr.ontimeout = () => {
      settle();
      reject(new ApiError(0, 'timeout', 'The upload took longer than 30 minutes and was stopped.'));
    };
    xhr.onabort = () => {
      settle();
      reject(new DOMException('Upload cancelled', 'AbortError'));
    };
    xhr.send(form);
  });
}
