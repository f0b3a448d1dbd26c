/**
 * The typed Node client of the htmls API: what the CLI (and any script) uses. It speaks the
 * contract of API.md and nothing else, and it carries the share upload engine of the native
 * clients: capabilities, init, parts (3 parallel 64 MB direct to the bucket, or 1 × 48 MB
 * through the server), 4 retries per part with backoff, complete — streamed from disk and
 * resumable after a crash: the state after init is kept in a file, and a new run asks the
 * server which parts the store already holds.
 */
import { openAsBlob } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApiError } from './api';
import { isPrivatePath } from './private-paths';
import { defaultBackoff, fingerprint, isTransient, type PartRange, putRange, readState, removeState, retry, writeState } from './node-transfer';
import type { ProjectDto } from '@/lib/hosting/project-dto';
import type { ShareDto } from '@/lib/shares/share-dto';
import type { UserDto } from '@/lib/users/user-dto';

export { ApiError };

export interface LocalFile {
  /** Absolute path on disk. */
  file: string;
  /** Path inside the share or site. */
  path: string;
  size: number;
  mtimeMs: number;
}

export interface UploadProgress {
  loaded: number;
  total: number;
  speed: number;
  eta: number;
}

interface InitFile {
  clientPath: string;
  relativePath: string;
  uploadId: string;
  storageKey: string;
  partCount: number;
}

interface UploadState {
  baseUrl: string;
  groupId: string;
  mode: 'direct' | 'proxy';
  partSize: number;
  parallel: number;
  files: InitFile[];
}

interface StoredPart {
  partNumber: number;
  size: number;
  etag: string;
}

export interface UploadPlan {
  groupId: string;
  mode: 'direct' | 'proxy';
  partSize: number;
  totalParts: number;
  /** Parts an earlier, interrupted run already stored: not sent again. */
  storedParts: number;
  resumed: boolean;
}

export interface ShareUploadOptions {
  note?: string;
  expiresAt?: string | null;
  password?: string;
  onProgress?: (p: UploadProgress) => void;
  /** Once, before the first part: how many parts there are and how many are already stored. */
  onPlan?: (plan: UploadPlan) => void;
  /** After each part the store confirmed: (parts stored in this run). */
  onPartDone?: (count: number) => void;
  /** Where the resume state lives; default <config dir>/uploads/<hash of the file list>.json. */
  stateFile?: string;
  stateDir?: string;
  /** Retries per part after the first attempt (the contract's maxRetries, 4). */
  retries?: number;
  backoffMs?: (attempt: number) => number;
}

export const configDir = () => process.env.HTMLS_CONFIG_DIR || path.join(os.homedir(), '.config', 'htmls');

/** Every file under the given files and folders; a folder keeps its own name as the top folder. */
export async function collectFiles(inputs: string[]): Promise<LocalFile[]> {
  const out: LocalFile[] = [];
  const walk = async (abs: string, rel: string) => {
    const st = await stat(abs);
    if (st.isDirectory()) {
      for (const e of (await readdir(abs)).sort()) {
        if (/^(\.DS_Store|Thumbs\.db|desktop\.ini)$/i.test(e)) continue;
        await walk(path.join(abs, e), `${rel}/${e}`);
      }
    } else if (st.isFile()) {
      out.push({ file: abs, path: rel, size: st.size, mtimeMs: st.mtimeMs });
    }
  };
  for (const input of inputs) {
    const abs = path.resolve(input);
    await walk(abs, path.basename(abs));
  }
  return out;
}

export class HtmlsClient {
  baseUrl: string;
  token?: string;

  constructor(opts: { baseUrl: string; token?: string }) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.token = opts.token;
  }

  async request<T>(method: string, p: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(this.baseUrl + p, {
        method,
        headers: {
          ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}),
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(0, 'network_error', `Could not reach ${this.baseUrl}`);
    }
    return parse<T>(res);
  }

  async login(username: string, password: string) {
    const r = await this.request<{ role: 'admin' | 'member'; user: UserDto | null; token: string; expires_at: string }>('POST', '/api/auth/login', { username, password });
    this.token = r.token;
    return r;
  }

  async loginAdmin(token: string) {
    const r = await this.request<{ role: 'admin'; user: null; token: string; expires_at: string }>('POST', '/api/auth/login', { token });
    this.token = r.token;
    return r;
  }

  logout = () => this.request<{ ok: true }>('POST', '/api/auth/logout');
  me = () => this.request<{ role: 'admin' | 'member'; user: UserDto | null }>('GET', '/api/auth/me');
  updateProfile = (p: { display_name?: string; email?: string; phone?: string }) => this.request<{ user: UserDto }>('PATCH', '/api/auth/profile', p);
  deleteAccount = () => this.request<void>('DELETE', '/api/auth/account');
  listShares = async () => (await this.request<{ shares: ShareDto[] }>('GET', '/api/shares')).shares;
  updateShare = async (id: string, p: { note?: string; expires_at?: string | null; password?: string | null; status?: 'online' | 'offline' }) =>
    (await this.request<{ share: ShareDto }>('PATCH', `/api/shares/${encodeURIComponent(id)}`, p)).share;
  deleteShare = (id: string) => this.request<void>('DELETE', `/api/shares/${encodeURIComponent(id)}`);

  /**
   * POST /api/upload: fields first, then each file streamed from disk (openAsBlob); a .zip is
   * sent alone and unpacked by the server. `.git/`, `.env*`, `.hg/`, `.svn/` and
   * `node_modules/` stay home unless `includeDotfiles`.
   */
  async deployHosted(
    folder: string,
    opts: { slug?: string; note?: string; password?: string; append?: boolean; replace?: boolean; spa?: boolean; includeDotfiles?: boolean } = {},
  ): Promise<ProjectDto> {
    const files = (await collectFiles([folder])).filter((f) => opts.includeDotfiles || !isPrivatePath(f.path));
    if (files.length === 0) throw new ApiError(400, 'invalid_request', `${folder} holds no files`);
    const form = new FormData();
    if (opts.slug) form.append('slug', opts.slug);
    if (opts.note) form.append('note', opts.note);
    if (opts.password) form.append('password', opts.password);
    if (opts.append) form.append('append', 'true');
    if (opts.replace) form.append('replace', 'true');
    if (opts.spa) form.append('spa', 'true');
    if (opts.includeDotfiles) form.append('dotfiles', 'true');
    for (const f of files) form.append('file', await openAsBlob(f.file), f.path);
    const res = await fetch(`${this.baseUrl}/api/upload`, { method: 'POST', headers: this.token ? { Authorization: `Bearer ${this.token}` } : {}, body: form }).catch(() => {
      throw new ApiError(0, 'network_error', `Could not reach ${this.baseUrl}`);
    });
    return (await parse<{ project: ProjectDto }>(res)).project;
  }

  /** Uploads files and folders as one share, resuming an interrupted run of the same files. */
  async uploadShare(inputs: string[], opts: ShareUploadOptions = {}): Promise<ShareDto> {
    const files = await collectFiles(inputs);
    if (files.length === 0) throw new ApiError(400, 'invalid_request', 'Nothing to share: no files found');
    const stateFile = opts.stateFile ?? path.join(opts.stateDir ?? path.join(configDir(), 'uploads'), `${fingerprint(this.baseUrl, files)}.json`);
    const byPath = new Map(files.map((f) => [f.path, f]));
    const total = files.reduce((n, f) => n + f.size, 0);

    let state = await readState<UploadState>(stateFile);
    let stored = new Map<string, StoredPart[]>();
    if (state && (state.baseUrl !== this.baseUrl || state.files.some((f) => !byPath.has(f.clientPath)))) state = null;
    if (state) {
      try {
        const s = await this.request<{ files: (InitFile & { completed: boolean; parts: StoredPart[] })[] }>('POST', '/api/shares/upload/status', { groupId: state.groupId });
        stored = new Map(s.files.map((f) => [f.uploadId, f.completed ? completedParts(f, state!.partSize, byPath.get(f.clientPath)!.size) : f.parts]));
      } catch (e) {
        if (!(e instanceof ApiError) || (e.status !== 404 && e.status !== 409)) throw e;
        state = null; // the old upload is gone (aborted, expired or completed): start afresh
      }
    }
    const resumed = Boolean(state);
    if (!state) {
      await removeState(stateFile);
      const caps = await this.request<{ mode: 'direct' | 'proxy'; partSize: number; parallel: number }>('GET', '/api/shares/upload/capabilities');
      const init = await this.request<{ groupId: string; mode: 'direct' | 'proxy'; partSize: number; files: InitFile[] }>('POST', '/api/shares/upload/init', {
        note: opts.note || undefined,
        expires_at: opts.expiresAt ?? undefined,
        password: opts.password || undefined,
        files: files.map((f) => ({ clientPath: f.path, size: f.size })),
      });
      state = { baseUrl: this.baseUrl, groupId: init.groupId, mode: init.mode, partSize: init.partSize, parallel: init.mode === 'direct' ? caps.parallel : 1, files: init.files };
      await writeState(stateFile, state);
    }
    const st = state;

    const jobs: { f: InitFile; n: number; range: PartRange }[] = [];
    const etags = new Map<string, { partNumber: number; etag: string }[]>();
    let loaded = 0;
    for (const f of st.files) {
      const local = byPath.get(f.clientPath)!;
      const have = new Map((stored.get(f.uploadId) ?? []).map((p) => [p.partNumber, p]));
      etags.set(f.uploadId, []);
      for (let n = 1; n <= f.partCount; n++) {
        const start = (n - 1) * st.partSize;
        const end = Math.min(local.size, start + st.partSize);
        const prior = have.get(n);
        // A part cut short by a crash is listed with the wrong size: send it again.
        if (prior && prior.size === end - start) {
          etags.get(f.uploadId)!.push({ partNumber: n, etag: prior.etag });
          loaded += end - start;
        } else jobs.push({ f, n, range: { file: local.file, start, end } });
      }
    }
    const totalParts = st.files.reduce((n, f) => n + f.partCount, 0);
    opts.onPlan?.({ groupId: st.groupId, mode: st.mode, partSize: st.partSize, totalParts, storedParts: totalParts - jobs.length, resumed });

    const t0 = Date.now();
    const startLoaded = loaded;
    const report = () => {
      const speed = ((loaded - startLoaded) / Math.max(1, Date.now() - t0)) * 1000;
      opts.onProgress?.({ loaded, total, speed, eta: speed > 0 ? (total - loaded) / speed : Infinity });
    };
    report();

    // The first failure stops every worker and cancels the parts in flight.
    const stop = new AbortController();
    let next = 0;
    let partsDone = 0;
    const worker = async () => {
      while (!stop.signal.aborted && next < jobs.length) {
        const job = jobs[next++];
        let counted = 0;
        const etag = await retry(
          opts.retries ?? 4,
          opts.backoffMs ?? defaultBackoff,
          () => {
            loaded -= counted; // a failed attempt's bytes are sent again
            counted = 0;
            return this.sendPart(st, job.f, job.n, job.range, stop.signal, (b) => {
              counted += b;
              loaded += b;
              report();
            });
          },
          stop.signal,
        );
        loaded += job.range.end - job.range.start - counted;
        etags.get(job.f.uploadId)!.push({ partNumber: job.n, etag });
        partsDone++;
        report();
        opts.onPartDone?.(partsDone);
      }
    };
    try {
      const results = await Promise.allSettled(
        Array.from({ length: Math.max(1, Math.min(st.parallel, jobs.length)) }, () => worker().catch((e) => (stop.abort(), Promise.reject(e)))),
      );
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !(r.reason instanceof ApiError && r.reason.code === 'aborted'));
      if (failed) throw failed.reason;
      const done = await this.request<{ share: ShareDto }>('POST', '/api/shares/upload/complete', {
        groupId: st.groupId,
        files: st.files.map((f) => ({ uploadId: f.uploadId, storageKey: f.storageKey, parts: etags.get(f.uploadId)!.sort((a, b) => a.partNumber - b.partNumber) })),
      });
      await removeState(stateFile);
      return done.share;
    } catch (e) {
      // A refusal or an unreadable file will not go away by retrying: abort so nothing is left
      // behind. A network or server failure keeps the state, so the next run resumes.
      if (!isTransient(e)) {
        await this.request('POST', '/api/shares/upload/abort', { groupId: st.groupId }).catch(() => {});
        await removeState(stateFile);
      }
      throw e;
    }
  }

  private async sendPart(st: UploadState, f: InitFile, partNumber: number, range: PartRange, signal: AbortSignal, onBytes: (n: number) => void): Promise<string> {
    const ref = { groupId: st.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber };
    if (st.mode === 'direct') {
      const signed = await this.request<{ url: string; headers?: Record<string, string> }>('POST', '/api/shares/upload/part-url', ref);
      const r = await putRange(signed.url, { ...(signed.headers ?? {}) }, range, { onBytes, signal });
      if (!r.etag) throw new ApiError(502, 'storage_unavailable', 'The store did not answer with an ETag');
      return r.etag;
    }
    const q = new URLSearchParams({ ...ref, partNumber: String(partNumber) });
    const r = await putRange(`${this.baseUrl}/api/shares/upload/chunk?${q}`, this.token ? { Authorization: `Bearer ${this.token}` } : {}, range, { onBytes, signal });
    return (JSON.parse(r.text) as { etag: string }).etag;
  }
}

/** For a file an earlier complete attempt already merged: every part counts as stored. */
function completedParts(f: InitFile, partSize: number, size: number) {
  return Array.from({ length: f.partCount }, (_, i) => ({ partNumber: i + 1, size: Math.min(size, (i + 1) * partSize) - i * partSize, etag: '' }));
}

async function parse<T>(res: Response): Promise<T> {
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
    throw new ApiError(res.status, d?.code ?? 'http_error', d?.error ?? `Request failed (${res.status})`, Number(res.headers.get('Retry-After')) || undefined);
  }
  return data as T;
}
