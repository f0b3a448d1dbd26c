/**
 * The one share upload engine, for the /files console, the SDK and the CLI: capabilities →
 * init (or status, to resume) → parts → complete, with the protocol's rules. Parts are the
 * server's size, `parallel` at a time (3 straight to the bucket, 1 through the server), each
 * retried up to 4 times with backoff and jitter, dropped and retried when no byte moves for a
 * while; progress is counted in bytes. The first fatal failure stops every other part and
 * aborts the group on the server; a failure that outlasts its retries (the network, the
 * server) leaves the group to be resumed. Environment-neutral: see types.ts.
 */
import { ApiError } from '../api';
import { endpointPath, endpoints, type EndpointName } from '../../contract/endpoints';
import type { BodyOf, ResponseOf } from '../../contract/operations';
import type { ChunkResult, InitFile, UploadStatusFile } from '../../contract/upload-protocol';
import { planParts, splitByStatus, type PartJob, type StoredPart } from './plan';
import { ProgressTracker } from './progress';
import { backoffWithJitter, cancelled, isCancel, isRetryable, retryDelay, sleep } from './retry';
import type { ShareDto, UploadOptions, UploadSource, UploadTransport } from './types';

const DEFAULT_STALL_MS = 60_000;

interface Group {
  groupId: string;
  mode: 'direct' | 'proxy';
  partSize: number;
  files: InitFile[];
}

export async function runShareUpload<Body>(transport: UploadTransport<Body>, sources: UploadSource<Body>[], opts: UploadOptions = {}): Promise<ShareDto> {
  // `stop` ends every part in flight: the caller's cancel, or the first fatal failure.
  const stop = new AbortController();
  const onCancel = () => stop.abort();
  opts.signal?.addEventListener('abort', onCancel, { once: true });
  try {
    if (opts.signal?.aborted) throw cancelled();
    const bySource = new Map(sources.map((s) => [s.clientPath, s]));
    const progress = new ProgressTracker(sources, opts.onProgress);
    progress.report();
    // A guest (an upload token, not a session) cannot ask for the capabilities: the group's
    // mode says them (3 parts at once straight to the store, 1 through the server).
    const caps = opts.guest ? null : await call(transport, 'uploadCapabilities', undefined, stop.signal);
    const { group, status } = await openGroup(transport, sources, bySource, opts, stop.signal);
    const run = new PartRunner(transport, group, bySource, progress, opts, stop);
    try {
      const jobs = planParts(group.files, new Map(sources.map((s) => [s.clientPath, s.size])), group.partSize);
      const { stored, todo } = splitByStatus(jobs, status);
      for (const job of jobs) progress.expectParts(job.file.clientPath, 1);
      for (const [job, part] of stored) run.record(job, part);
      const parallel = caps ? Math.max(1, group.mode === caps.mode ? caps.parallel : 1) : group.mode === 'direct' ? 3 : 1;
      await opts.onPlan?.({ ...group, parallel, totalParts: jobs.length, storedParts: stored.size, resumed: Boolean(opts.resumeGroupId) });
      progress.stage = 'uploading';
      progress.report();
      await run.all(todo, parallel, opts.retries ?? caps?.maxRetries ?? 4);
      progress.stage = 'finishing';
      progress.report();
      await opts.onCompleting?.();
      return await complete(transport, group, run.etags, opts, stop.signal);
    } catch (e) {
      const keep = isRetryable(e) || (isCancel(e) && opts.abortOnCancel === false);
      if (!keep) {
        await call(transport, 'abortUpload', { groupId: group.groupId }).catch(() => {});
        opts.onAbandoned?.(group.groupId);
      }
      throw e;
    }
  } finally {
    opts.signal?.removeEventListener('abort', onCancel);
  }
}

/** A new group (init), or the one being resumed with what the store already holds (status). */
async function openGroup<Body>(
  transport: UploadTransport<Body>,
  sources: UploadSource<Body>[],
  bySource: Map<string, UploadSource<Body>>,
  opts: UploadOptions,
  signal: AbortSignal,
): Promise<{ group: Group; status: UploadStatusFile[] }> {
  if (opts.resumeGroupId) {
    const st = await call(transport, 'uploadStatus', { groupId: opts.resumeGroupId }, signal);
    for (const f of st.files) {
      const local = bySource.get(f.clientPath);
      if (!local) throw new ApiError(-1, 'files_changed', `${f.clientPath} is missing: choose the same files again`);
      if (local.size !== f.size) throw new ApiError(-1, 'files_changed', `${f.clientPath} has changed since the upload started`);
    }
    return { group: st, status: st.files };
  }
  const files = sources.map((s) => ({ clientPath: s.clientPath, size: s.size, contentType: s.contentType || undefined }));
  if (opts.init) return { group: await opts.init(files, signal), status: [] };
  const init = await call(
    transport,
    'initUpload',
    opts.shareId
      ? { share_id: opts.shareId, files }
      : {
          note: opts.note || undefined,
          expires_at: opts.expiresAt ?? undefined,
          password: opts.password || undefined,
          max_downloads: opts.maxDownloads ?? undefined,
          files,
        },
    signal,
  );
  return { group: init, status: [] };
}

class PartRunner<Body> {
  readonly etags = new Map<string, StoredPart[]>();

  constructor(
    private readonly transport: UploadTransport<Body>,
    private readonly group: Group,
    private readonly sources: Map<string, UploadSource<Body>>,
    private readonly progress: ProgressTracker,
    private readonly opts: UploadOptions,
    private readonly stop: AbortController,
  ) {}

  record(job: PartJob, part: StoredPart): void {
    this.etags.set(job.file.uploadId, [...(this.etags.get(job.file.uploadId) ?? []), part]);
    this.progress.partDone(keyOf(job), job.file.clientPath, job.end - job.start);
  }

  /** `parallel` workers over the parts; the first failure stops the others. */
  async all(todo: PartJob[], parallel: number, retries: number): Promise<void> {
    let next = 0;
    let failure: { error: unknown } | undefined;
    const worker = async () => {
      while (!this.stop.signal.aborted && next < todo.length) {
        const job = todo[next++];
        const ahead = todo[next];
        if (ahead) this.transport.prefetch?.(this.sources.get(ahead.file.clientPath)!.slice(ahead.start, ahead.end), ahead.end - ahead.start);
        try {
          const etag = await this.sendWithRetries(job, retries);
          this.record(job, { partNumber: job.partNumber, etag });
          this.opts.onPartStored?.(job.file, job.partNumber, etag);
        } catch (error) {
          failure ??= { error };
          this.stop.abort();
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(parallel, Math.max(1, todo.length)) }, worker));
    } finally {
      // A later run on this transport (a resume after a failure) reads its parts afresh.
      this.transport.dropPrefetched?.();
    }
    if (failure) throw failure.error;
    if (this.stop.signal.aborted) throw cancelled();
  }

  private async sendWithRetries(job: PartJob, retries: number): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.sendOnce(job);
      } catch (e) {
        this.progress.partRetry(keyOf(job));
        if (this.stop.signal.aborted) throw isCancel(e) ? e : cancelled();
        if (!isRetryable(e) || attempt >= retries) throw e;
        await sleep(retryDelay(e, attempt + 1, this.opts.backoffMs ?? backoffWithJitter), this.stop.signal);
      }
    }
  }

  /** One attempt, with its own abort (the stall timer's, or `stop`), leaving no listener behind. */
  private async sendOnce(job: PartJob): Promise<string> {
    const { group, transport } = this;
    const attempt = new AbortController();
    const onStop = () => attempt.abort();
    this.stop.signal.addEventListener('abort', onStop, { once: true });
    const stallMs = this.opts.stallMs ?? DEFAULT_STALL_MS;
    let stalled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => ((stalled = true), attempt.abort()), stallMs);
    };
    arm();
    try {
      const ref = { groupId: group.groupId, uploadId: job.file.uploadId, storageKey: job.file.storageKey, partNumber: job.partNumber };
      const body = this.sources.get(job.file.clientPath)!.slice(job.start, job.end);
      const onProgress = (sent: number) => {
        arm();
        this.progress.partSent(keyOf(job), job.file.clientPath, sent);
      };
      if (group.mode === 'direct') {
        const signed = await call(transport, 'partUrl', ref, attempt.signal);
        const r = await transport.put({ url: signed.url, api: false, headers: signed.headers ?? {}, body, length: job.end - job.start, signal: attempt.signal, onProgress });
        if (!r.etag) throw new ApiError(-1, 'cors_error', 'The storage bucket did not expose the ETag header (check its CORS rules).');
        return r.etag;
      }
      const q = new URLSearchParams({ ...ref, partNumber: String(job.partNumber) });
      const r = await transport.put({ url: `${endpoints.uploadChunk.path}?${q}`, api: true, headers: {}, body, length: job.end - job.start, signal: attempt.signal, onProgress });
      return (JSON.parse(r.text) as ChunkResult).etag;
    } catch (e) {
      if (stalled) throw new ApiError(0, 'stalled', `No byte moved for ${Math.round(stallMs / 1000)} s`);
      if (this.stop.signal.aborted) throw cancelled();
      throw e;
    } finally {
      clearTimeout(timer);
      this.stop.signal.removeEventListener('abort', onStop);
    }
  }
}

const keyOf = (job: PartJob) => `${job.file.uploadId}:${job.partNumber}`;

/** Complete, retried like a part. A retry that finds it already done fetches the share. */
async function complete<Body>(
  transport: UploadTransport<Body>,
  group: Group,
  etags: Map<string, StoredPart[]>,
  opts: UploadOptions,
  signal: AbortSignal,
): Promise<ShareDto> {
  const retries = opts.retries ?? 4;
  const backoff = opts.backoffMs ?? backoffWithJitter;
  const body = {
    groupId: group.groupId,
    files: group.files.map((f) => ({
      uploadId: f.uploadId,
      storageKey: f.storageKey,
      parts: [...(etags.get(f.uploadId) ?? [])].sort((a, b) => a.partNumber - b.partNumber).map((p) => (p.etag ? p : { partNumber: p.partNumber })),
    })),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      return (await call(transport, 'completeUpload', body, signal)).share;
    } catch (e) {
      if (attempt > 0 && e instanceof ApiError && e.code === 'already_completed') {
        // Completed by an attempt whose answer was lost: that share is the result (the whole
        // share, when the files were added to one).
        const found = await call(transport, 'getShare', undefined, signal, { id: opts.shareId ?? group.groupId }).catch(() => null);
        if (found) return found.share;
      }
      // A guest's token authorizes its upload only while pending: the same answer, lost, turns
      // the retry into a 401. That token worked a moment ago, so the upload was delivered.
      if (attempt > 0 && opts.guest && e instanceof ApiError && e.status === 401) throw delivered();
      if (signal.aborted) throw cancelled();
      if (!isRetryable(e) || attempt >= retries) throw e;
      await sleep(retryDelay(e, attempt + 1, backoff), signal);
    }
  }
}

/**
 * A guest's upload whose complete reached the server but whose answer did not: what a caller
 * shows as sent (409 already_completed, as a member's repeated complete answers).
 */
export const delivered = () => new ApiError(409, 'already_completed', 'The files were delivered; only the confirmation was lost on the way back.');

/** The contract's JSON operations the engine calls (GET or POST). */
type JsonOperation = { [K in EndpointName]: (typeof endpoints)[K]['method'] extends 'GET' | 'POST' ? K : never }[EndpointName];

/** One operation of the contract: method and path from endpoints.ts, body and answer typed by its schemas. */
function call<N extends JsonOperation>(transport: UploadTransport<unknown>, name: N, body: BodyOf<N>, signal?: AbortSignal, params?: Record<string, string>): Promise<ResponseOf<N>> {
  return transport.json<ResponseOf<N>>(endpoints[name].method as 'GET' | 'POST', endpointPath(name, params), body, signal);
}
