/**
 * The browser's share upload engine: capabilities → init → parts → complete, with the
 * protocol's rules — `parallel` parts at once (3 direct to the bucket, 1 through the server),
 * each part retried up to 4 times with backoff, and abort on cancel or any failure, so no
 * half-made share is left behind. Parts are Blob slices: nothing is read whole into memory.
 */
import { api, ApiError } from './api';
import type { ShareDto } from '@/lib/shares/share-dto';

export interface UploadItem {
  file: Blob;
  /** Relative path inside the share, e.g. `holiday/clip.mp4`. */
  path: string;
}

export interface FileProgress {
  path: string;
  loaded: number;
  total: number;
  done: boolean;
}

export interface UploadProgress {
  stage: 'preparing' | 'uploading' | 'finishing';
  loaded: number;
  total: number;
  /** Bytes per second over the last few seconds. */
  speed: number;
  /** Seconds left at the current speed. */
  eta: number;
  files: FileProgress[];
}

export interface UploadOptions {
  note?: string;
  expiresAt?: string | null;
  password?: string;
  signal?: AbortSignal;
  onProgress?: (p: UploadProgress) => void;
  /** For tests: the wait before retry n (1-based). */
  backoffMs?: (attempt: number) => number;
}

interface Capabilities {
  mode: 'direct' | 'proxy';
  partSize: number;
  parallel: number;
  maxRetries: number;
}

interface InitFile {
  clientPath: string;
  relativePath: string;
  uploadId: string;
  storageKey: string;
  partCount: number;
}

interface InitResult {
  groupId: string;
  mode: 'direct' | 'proxy';
  partSize: number;
  files: InitFile[];
}

export interface PartJob {
  file: InitFile;
  item: UploadItem;
  partNumber: number;
  start: number;
  end: number;
}

/** Every part of every file: all but the last exactly partSize bytes, at least one per file. */
export function planParts(files: InitFile[], items: Map<string, UploadItem>, partSize: number): PartJob[] {
  const jobs: PartJob[] = [];
  for (const file of files) {
    const item = items.get(file.clientPath)!;
    for (let n = 1; n <= file.partCount; n++) {
      const start = (n - 1) * partSize;
      jobs.push({ file, item, partNumber: n, start, end: Math.min(item.file.size, start + partSize) });
    }
  }
  return jobs;
}

/** Speed over a sliding window of samples: steadier than an instant rate, quicker than an average. */
export class SpeedMeter {
  private samples: { t: number; bytes: number }[] = [];
  constructor(private windowMs = 5000) {}
  add(bytes: number, t = Date.now()): void {
    this.samples.push({ t, bytes });
    while (this.samples.length > 2 && t - this.samples[0].t > this.windowMs) this.samples.shift();
  }
  speed(): number {
    if (this.samples.length < 2) return 0;
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    const dt = (last.t - first.t) / 1000;
    return dt > 0 ? Math.max(0, (last.bytes - first.bytes) / dt) : 0;
  }
}

export const defaultBackoff = (attempt: number) => Math.min(30_000, 1000 * 2 ** (attempt - 1)) * (0.75 + Math.random() * 0.5);

/** A retryable failure: the network, a timeout, a 5xx, or 408/429. Anything else is final. */
const retryable = (e: unknown) =>
  e instanceof ApiError ? e.status === 0 || e.status === 408 || e.status === 429 || e.status >= 500 : (e as Error).name !== 'AbortError';

export async function uploadShare(items: UploadItem[], opts: UploadOptions = {}): Promise<ShareDto> {
  const signal = opts.signal;
  const total = items.reduce((n, i) => n + i.file.size, 0);
  const files: FileProgress[] = items.map((i) => ({ path: i.path, loaded: 0, total: i.file.size, done: false }));
  const meter = new SpeedMeter();
  const partLoaded = new Map<string, number>();
  let stage: UploadProgress['stage'] = 'preparing';
  const report = () => {
    const loaded = [...partLoaded.values()].reduce((a, b) => a + b, 0);
    meter.add(loaded);
    const speed = meter.speed();
    opts.onProgress?.({ stage, loaded, total, speed, eta: speed > 0 ? (total - loaded) / speed : Infinity, files });
  };
  report();

  const caps = await api<Capabilities>('/api/shares/upload/capabilities', { signal });
  const init = await api<InitResult>('/api/shares/upload/init', {
    body: {
      note: opts.note || undefined,
      expires_at: opts.expiresAt ?? undefined,
      password: opts.password || undefined,
      files: items.map((i) => ({ clientPath: i.path, size: i.file.size, contentType: i.file.type || undefined })),
    },
    signal,
  });
  const abortGroup = () => api('/api/shares/upload/abort', { body: { groupId: init.groupId } }).catch(() => {});

  try {
    stage = 'uploading';
    const byPath = new Map(items.map((i) => [i.path, i]));
    const jobs = planParts(init.files, byPath, init.partSize);
    const etags = new Map<string, { partNumber: number; etag: string }[]>();
    const remaining = new Map(init.files.map((f) => [f.clientPath, f.partCount]));
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        signal?.throwIfAborted();
        const job = jobs[next++];
        const key = `${job.file.uploadId}:${job.partNumber}`;
        const etag = await withRetries(caps.maxRetries ?? 4, opts.backoffMs ?? defaultBackoff, signal, async () => {
          partLoaded.set(key, 0);
          return sendPart(init, job, signal, (loaded) => {
            partLoaded.set(key, loaded);
            const f = files.find((x) => x.path === job.file.clientPath)!;
            f.loaded = jobs
              .filter((j) => j.file === job.file)
              .reduce((n, j) => n + (partLoaded.get(`${j.file.uploadId}:${j.partNumber}`) ?? 0), 0);
            report();
          });
        });
        partLoaded.set(key, job.end - job.start);
        etags.set(job.file.uploadId, [...(etags.get(job.file.uploadId) ?? []), { partNumber: job.partNumber, etag }]);
        const left = remaining.get(job.file.clientPath)! - 1;
        remaining.set(job.file.clientPath, left);
        if (left === 0) files.find((x) => x.path === job.file.clientPath)!.done = true;
        report();
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(init.mode === 'direct' ? caps.parallel : 1, jobs.length)) }, worker));
    stage = 'finishing';
    report();
    const done = await api<{ share: ShareDto }>('/api/shares/upload/complete', {
      body: {
        groupId: init.groupId,
        files: init.files.map((f) => ({
          uploadId: f.uploadId,
          storageKey: f.storageKey,
          parts: (etags.get(f.uploadId) ?? []).sort((a, b) => a.partNumber - b.partNumber),
        })),
      },
    });
    return done.share;
  } catch (e) {
    await abortGroup();
    throw e;
  }
}

async function withRetries<T>(retries: number, backoff: (n: number) => number, signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (signal?.aborted || attempt >= retries || !retryable(e)) throw e;
      await new Promise((r) => setTimeout(r, backoff(attempt + 1)));
    }
  }
}

async function sendPart(init: InitResult, job: PartJob, signal: AbortSignal | undefined, onLoaded: (n: number) => void): Promise<string> {
  const body = job.item.file.slice(job.start, job.end);
  const ref = { groupId: init.groupId, uploadId: job.file.uploadId, storageKey: job.file.storageKey, partNumber: job.partNumber };
  if (init.mode === 'direct') {
    const signed = await api<{ url: string; headers?: Record<string, string> }>('/api/shares/upload/part-url', { body: ref, signal });
    const { headers } = await put(signed.url, body, signed.headers ?? {}, false, signal, onLoaded);
    const etag = headers.get('etag');
    if (!etag) throw new ApiError(0, 'cors_error', 'The storage bucket did not expose the ETag header (check its CORS rules).');
    return etag;
  }
  const q = new URLSearchParams({ ...ref, partNumber: String(job.partNumber) });
  const { text } = await put(`/api/shares/upload/chunk?${q}`, body, {}, true, signal, onLoaded);
  return (JSON.parse(text) as { etag: string }).etag;
}

/** One PUT with upload progress (fetch cannot report it), as an ApiError on failure. */
function put(
  url: string,
  body: Blob,
  headers: Record<string, string>,
  sameOrigin: boolean,
  signal: AbortSignal | undefined,
  onLoaded: (n: number) => void,
): Promise<{ text: string; headers: Headers }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.withCredentials = sameOrigin;
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => onLoaded(e.loaded);
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      done();
      if (xhr.status >= 200 && xhr.status < 300) {
        const h = new Headers();
        const etag = xhr.getResponseHeader('ETag');
        if (etag) h.set('etag', etag);
        resolve({ text: xhr.responseText, headers: h });
        return;
      }
      let code = 'http_error';
      let message = `Upload of a part failed (${xhr.status})`;
      try {
        const data = JSON.parse(xhr.responseText) as { code?: string; error?: string };
        code = data.code ?? code;
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
      reject(new DOMException('Upload cancelled', 'AbortError'));
    };
    xhr.send(body);
  });
}
