/**
 * The typed Node client of the htmls API: what the CLI (and any script) uses. It speaks the
 * HTTP contract (lib/contract/) and nothing else. Share uploads run on the one upload engine
 * (lib/upload-engine/) with files streamed from disk, and resume after a crash: the group id
 * is kept in a state file after init, and a new run asks the server which parts arrived.
 */
import { openAsBlob } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { endpointPath, endpoints, type EndpointName } from '../../contract/endpoints';
import type { BodyOf, ResponseOf } from '../../contract/operations';
import { runShareUpload } from '../../upload-engine/engine';
import type { UploadPlan, UploadProgress } from '../../upload-engine/types';
import { ApiError } from '../api';
import { appendSiteFields, type SiteFields } from '../site-fields';
import { collectFiles } from './local-files';
import { apiRequest, fileSource, nodeTransport } from './node-transport';
import { fingerprint, readState, removeState, stateRecorder, writeState } from './upload-state';
import type { ProjectDto } from '@/lib/hosting/project-dto';
import type { ShareDto } from '@/lib/shares/share-dto';

export { ApiError };
export type { UploadPlan, UploadProgress };

export interface ShareUploadOptions {
  note?: string;
  expiresAt?: string | null;
  password?: string;
  onProgress?: (p: UploadProgress) => void;
  /** Once, before the first part: how many parts there are and how many are already stored. */
  onPlan?: (plan: UploadPlan) => void;
  /** After each part the store confirmed: (parts stored in this run). */
  onPartDone?: (count: number) => void;
  /** `.git/`, `.env*`, `.hg/`, `.svn/` and `node_modules/` are left out unless this is set. */
  includeDotfiles?: boolean;
  /** The private paths left out, once, before the upload starts. */
  onSkipped?: (paths: string[]) => void;
  /** Where the resume state lives; default <config dir>/uploads/<hash of the file list>.json. */
  stateFile?: string;
  stateDir?: string;
  /** Retries per part after the first attempt (the contract's maxRetries, 4). */
  retries?: number;
  backoffMs?: (attempt: number) => number;
}

export const configDir = () => process.env.HTMLS_CONFIG_DIR || path.join(os.homedir(), '.config', 'htmls');

export class HtmlsClient {
  baseUrl: string;
  token?: string;

  constructor(opts: { baseUrl: string; token?: string }) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.token = opts.token;
  }

  request<T>(method: string, p: string, body?: unknown): Promise<T> {
    return apiRequest<T>(this.baseUrl, this.token, method, p, body);
  }

  /** One operation of the contract by name: method and path from endpoints.ts, body and answer typed by its schemas. */
  private op<N extends EndpointName>(name: N, body?: BodyOf<N>, params?: Record<string, string>): Promise<ResponseOf<N>> {
    return this.request<ResponseOf<N>>(endpoints[name].method, endpointPath(name, params), body);
  }

  async login(username: string, password: string) {
    const r = await this.op('login', { username, password });
    this.token = r.token;
    return r;
  }

  async loginAdmin(token: string) {
    const r = await this.op('login', { token });
    this.token = r.token;
    return r;
  }

  logout = () => this.op('logout');
  me = () => this.op('me');
  updateProfile = (p: BodyOf<'updateProfile'>) => this.op('updateProfile', p);
  deleteAccount = () => this.op('deleteOwnAccount');
  listShares = async () => (await this.op('listShares')).shares;
  updateShare = async (id: string, p: BodyOf<'updateShare'>) => (await this.op('updateShare', p, { id })).share;
  deleteShare = (id: string) => this.op('deleteShare', undefined, { id });

  /**
   * POST /api/upload: fields first, then each file streamed from disk (openAsBlob); a .zip is
   * sent alone and unpacked by the server. `.git/`, `.env*`, `.hg/`, `.svn/` and
   * `node_modules/` stay home unless `includeDotfiles`.
   */
  async deployHosted(
    folder: string,
    opts: Omit<SiteFields, 'dotfiles'> & { includeDotfiles?: boolean; onSkipped?: (paths: string[]) => void } = {},
  ): Promise<ProjectDto> {
    const { files, skipped } = await collectFiles([folder], { includePrivate: opts.includeDotfiles });
    if (skipped.length > 0) opts.onSkipped?.(skipped);
    if (files.length === 0) throw new ApiError(400, 'invalid_request', `${folder} holds no files`);
    const form = new FormData();
    appendSiteFields(form, { ...opts, spa: opts.spa || undefined, dotfiles: opts.includeDotfiles || undefined });
    for (const f of files) form.append('file', await openAsBlob(f.file), f.path);
    const { method, path: p } = endpoints.uploadSite;
    return (await apiRequest<ResponseOf<'uploadSite'>>(this.baseUrl, this.token, method, p, form)).project;
  }

  /**
   * Uploads files and folders as one share through the upload engine, resuming an interrupted
   * run of the same files: the group id is kept in a state file after init, and the next run
   * asks the server which parts already arrived.
   */
  async uploadShare(inputs: string[], opts: ShareUploadOptions = {}): Promise<ShareDto> {
    const { files, skipped } = await collectFiles(inputs, { includePrivate: opts.includeDotfiles });
    if (skipped.length > 0) opts.onSkipped?.(skipped);
    if (files.length === 0) throw new ApiError(400, 'invalid_request', 'Nothing to share: no files found');
    const stateFile = opts.stateFile ?? path.join(opts.stateDir ?? path.join(configDir(), 'uploads'), `${fingerprint(this.baseUrl, files)}.json`);
    const sources = files.map((f) => fileSource(f.file, f.path, f.size));
    const transport = nodeTransport(this.baseUrl, this.token);
    const saved = await readState(stateFile);
    let partsStored = 0;
    let recorder: ReturnType<typeof stateRecorder> | undefined;
    const run = (resumeGroupId?: string) =>
      runShareUpload(transport, sources, {
        note: opts.note,
        expiresAt: opts.expiresAt,
        password: opts.password,
        resumeGroupId,
        retries: opts.retries,
        backoffMs: opts.backoffMs,
        onProgress: opts.onProgress,
        onPlan: async (plan) => {
          const state = resumeGroupId && saved ? saved : { baseUrl: this.baseUrl, groupId: plan.groupId };
          if (!resumeGroupId) await writeState(stateFile, state);
          recorder = stateRecorder(stateFile, state);
          opts.onPlan?.(plan);
        },
        onPartStored: (file, partNumber) => {
          recorder?.partStored(file.clientPath, partNumber);
          opts.onPartDone?.(++partsStored);
        },
        // A refusal or an unreadable file will not go away by retrying: nothing to resume.
        onAbandoned: () => void recorder?.close().then(() => removeState(stateFile)),
      });
    let share: ShareDto;
    if (saved && saved.baseUrl === this.baseUrl) {
      try {
        share = await run(saved.groupId);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        // Completed by the run that crashed before it could forget its state: that is the share.
        const done = e.code === 'already_completed' ? (await this.listShares()).find((x) => x.id === saved.groupId) : undefined;
        if (done) share = done;
        else if (e.status === 404 || e.code === 'files_changed') {
          // The old upload is gone (aborted, expired) or its files changed: start afresh.
          if (e.code === 'files_changed') await this.op('abortUpload', { groupId: saved.groupId }).catch(() => {});
          await recorder?.close();
          await removeState(stateFile);
          share = await run();
        } else throw e;
      }
    } else {
      share = await run();
    }
    await recorder?.close();
    await removeState(stateFile);
    return share;
  }
}
