/** The /htmls console's site upload: one multipart POST with upload progress and a 30-minute limit. */
import { ApiError } from './api';
import type { ProjectDto } from '@/lib/hosting/project-dto';

export const HOSTED_UPLOAD_TIMEOUT_MS = 30 * 60 * 1000;

export interface SiteUploadOptions {
  slug?: string;
  note?: string;
  password?: string;
  /** Keep the live deploy's other files. */
  append?: boolean;
  /** A new full deploy of an existing project. */
  replace?: boolean;
  spa?: boolean;
  dotfiles?: boolean;
  signal?: AbortSignal;
  onProgress?: (loaded: number, total: number) => void;
}

export function uploadSite(files: { file: Blob; path: string }[], opts: SiteUploadOptions = {}): Promise<ProjectDto> {
  const form = new FormData();
  // Fields must precede the files: the server streams files as they arrive.
  if (opts.slug) form.append('slug', opts.slug);
  if (opts.note) form.append('note', opts.note);
  if (opts.password) form.append('password', opts.password);
  if (opts.append) form.append('append', 'true');
  if (opts.replace) form.append('replace', 'true');
  if (opts.spa !== undefined) form.append('spa', String(opts.spa));
  if (opts.dotfiles !== undefined) form.append('dotfiles', String(opts.dotfiles));
  for (const f of files) form.append('file', f.file, f.path);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/upload');
    xhr.timeout = HOSTED_UPLOAD_TIMEOUT_MS;
    xhr.upload.onprogress = (e) => opts.onProgress?.(e.loaded, e.total);
    const onAbort = () => xhr.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => opts.signal?.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      settle();
      let data: { project?: ProjectDto; code?: string; error?: string } = {};
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        /* an HTML error page from a proxy */
      }
      if (xhr.status === 201 && data.project) resolve(data.project);
      else reject(new ApiError(xhr.status, data.code ?? 'http_error', data.error ?? `Upload failed (${xhr.status})`));
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
