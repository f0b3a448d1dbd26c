/**
 * The typed Node client of the htmls API: what the CLI (and any script) uses. It speaks the
 * HTTP contract (lib/contract/) and nothing else. Share uploads run on the one upload engine
 * (lib/client/upload-engine/) with files streamed from disk, and resume after a crash: the group id
 * is kept in a state file after init, and a new run asks the server which parts arrived.
 */
import { openAsBlob } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { endpointPath, endpoints, type EndpointName } from '../../contract/endpoints';
import { LIST_FIELD, pageQueryString, type ListEntry, type ListName, type ListPage, type PageQuery } from '../../contract/list-types';
import type { BodyOf, ResponseOf } from '../../contract/operations';
import { runShareUpload } from '../upload-engine/engine';
import type { UploadPlan, UploadProgress } from '../upload-engine/types';
import { ApiError } from '../api';
import { appendSiteFields, type SiteFields } from '../site-fields';
import { collectFiles } from './local-files';
import { apiRequest, fileSource, nodeTransport } from './node-transport';
import { fingerprint, readState, removeState, stateRecorder, writeState, type UploadState } from './upload-state';
import type { ProjectDto, ShareDto } from '@/lib/contract/dtos';

export { ApiError };
export type { PageQuery };
export type { UploadPlan, UploadProgress };

export interface ShareUploadOptions {
  note?: string;
  expiresAt?: string | null;
  password?: string;
  /** Whole downloads after which guests are refused; null or left out: no limit. */
  maxDownloads?: number | null;
  /** Add the files to this published share instead of making a new one (note and the rest stay the share's). */
  shareId?: string;
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

export interface RequestSendOptions extends Pick<ShareUploadOptions, 'onProgress' | 'onPlan' | 'onPartDone' | 'includeDotfiles' | 'onSkipped' | 'stateFile' | 'stateDir' | 'retries' | 'backoffMs'> {
  /** Who sends: the request may require a name. */
  name?: string;
  email?: string;
  message?: string;
  /** The request's password, when it has one. */
  password?: string;
}

/** What a file request received from `sendToRequest`; `confirmed: false` when the server's answer was lost (the files were delivered). */
export interface SentFiles {
  file_count: number;
  total_bytes: number;
  confirmed: boolean;
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
  private op<N extends EndpointName>(name: N, body?: BodyOf<N>, params?: Record<string, string>, query?: PageQuery): Promise<ResponseOf<N>> {
    return this.request<ResponseOf<N>>(endpoints[name].method, endpointPath(name, params) + pageQueryString(query), body);
  }

  /** The pages of a list as an async iterator: each step fetches the next page (keyset cursor). */
  private async *pages<N extends ListName>(name: N, query: Omit<PageQuery, 'cursor'>): AsyncGenerator<ListEntry<N>[]> {
    let cursor: string | undefined;
    do {
      const page = (await this.op(name, undefined, undefined, { ...query, cursor })) as unknown as ListPage<N>;
      yield (page as unknown as Record<string, ListEntry<N>[]>)[LIST_FIELD[name]];
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /** A session, or the second factor the sign-in waits for (`second_factor`, `challenge`): then loginSecondFactor. */
  async login(username: string, password: string) {
    const r = await this.op('login', { username, password });
    if ('token' in r) this.token = r.token;
    return r;
  }

  /** A sign-in's second step: a TOTP code or a recovery code for its challenge. */
  async loginSecondFactor(challenge: string, code: { code: string } | { recovery_code: string }) {
    const r = await this.op('loginSecondFactor', { challenge, ...code });
    this.token = r.token;
    return r;
  }

  async loginAdmin(token: string) {
    const r = await this.op('login', { token });
    if (!('token' in r)) throw new ApiError(401, 'unauthenticated', 'The Admin Token sign-in asked for a second factor');
    this.token = r.token;
    return r;
  }

  /** `htmls login --sso`: a hand-off to approve in a browser (its page and the code to compare). */
  startSsoHandoff = () => this.op('startCliHandoff');

  /** `pending`, or once approved the session (kept as this client's token). */
  async pollSsoHandoff(deviceCode: string) {
    const r = await this.op('pollCliHandoff', { device_code: deviceCode });
    if (r.status === 'approved') this.token = r.token;
    return r;
  }

  /** Ends every session of the caller but this one (`htmls logout --all`). */
  endOtherSessions = () => this.op('endOtherSessions');

  logout = () => this.op('logout');
  me = () => this.op('me');
  updateProfile = (p: BodyOf<'updateProfile'>) => this.op('updateProfile', p);
  deleteAccount = () => this.op('deleteOwnAccount');
  /** One page of the caller's shares, newest first, without items; pass `next_cursor` back as `cursor`. */
  listShares = (query: PageQuery = {}) => this.op('listShares', undefined, undefined, query);
  /** Every page of the caller's shares (the administrator: everyone's), fetched as the loop asks. */
  sharePages = (query: Omit<PageQuery, 'cursor'> = {}) => this.pages('listShares', query);
  /** One share with its items (404 when it is not the caller's). */
  getShare = async (id: string) => (await this.op('getShare', undefined, { id })).share;
  listUsers = (query: PageQuery = {}) => this.op('listUsers', undefined, undefined, query);
  userPages = (query: Omit<PageQuery, 'cursor'> = {}) => this.pages('listUsers', query);
  listProjects = (query: PageQuery = {}) => this.op('listProjects', undefined, undefined, query);
  projectPages = (query: Omit<PageQuery, 'cursor'> = {}) => this.pages('listProjects', query);
  getProject = async (slug: string) => (await this.op('getProject', undefined, { slug })).project;
  updateShare = async (id: string, p: BodyOf<'updateShare'>) => (await this.op('updateShare', p, { id })).share;
  deleteShare = (id: string) => this.op('deleteShare', undefined, { id });
  /** Removes one file (its relative_path) from a published share; not its only file. */
  deleteShareItem = (id: string, relativePath: string) =>
    this.request<void>(endpoints.deleteShareItem.method, `${endpointPath('deleteShareItem', { id })}?${new URLSearchParams({ path: relativePath })}`);
  /** Adds files and folders to a published share, resumable like uploadShare; answers the whole share. */
  addToShare = (shareId: string, inputs: string[], opts: Omit<ShareUploadOptions, 'shareId' | 'note' | 'expiresAt' | 'password' | 'maxDownloads'> = {}) =>
    this.uploadShare(inputs, { ...opts, shareId });
  /** Every one of the caller's access tokens, page after page. */
  async listTokens(): Promise<ResponseOf<'listTokens'>['tokens']> {
    const all: ResponseOf<'listTokens'>['tokens'] = [];
    let cursor: string | null = null;
    do {
      const q: string = `?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page: ResponseOf<'listTokens'> = await this.request(endpoints.listTokens.method, endpoints.listTokens.path + q);
      all.push(...page.tokens);
      cursor = page.next_cursor;
    } while (cursor);
    return all;
  }
  /** One page of the caller's file requests (the administrator: everyone's), newest first. */
  listRequests = (query: PageQuery = {}) => this.op('listRequests', undefined, undefined, query);
  requestPages = (query: Omit<PageQuery, 'cursor'> = {}) => this.pages('listRequests', query);
  getRequest = async (id: string) => (await this.op('getRequest', undefined, { id })).request;
  createRequest = async (p: BodyOf<'createRequest'>) => (await this.op('createRequest', p)).request;
  updateRequest = async (id: string, p: BodyOf<'updateRequest'>) => (await this.op('updateRequest', p, { id })).request;
  deleteRequest = (id: string) => this.op('deleteRequest', undefined, { id });
  createToken = (p: BodyOf<'createToken'>) => this.op('createToken', p);
  deleteToken = (id: string) => this.op('deleteToken', undefined, { id });

  /**
   * POST /api/upload: fields first, then each file streamed from disk (openAsBlob); a .zip is
   * sent alone and unpacked by the server. `.git/`, `.env*`, `.hg/`, `.svn/` and
   * `node_modules/` stay home unless `includeDotfiles`.
   */
  async deployHosted(
    folder: string,
    opts: Omit<SiteFields, 'dotfiles'> & { includeDotfiles?: boolean; onSkipped?: (paths: string[]) => void } = {},
  ): Promise<ResponseOf<'uploadSite'>> {
    const { files, skipped } = await collectFiles([folder], { includePrivate: opts.includeDotfiles });
    if (skipped.length > 0) opts.onSkipped?.(skipped);
    if (files.length === 0) throw new ApiError(400, 'invalid_request', `${folder} holds no files`);
    const form = new FormData();
    appendSiteFields(form, { ...opts, spa: opts.spa || undefined, dotfiles: opts.includeDotfiles || undefined });
    for (const f of files) form.append('file', await openAsBlob(f.file), f.path);
    const { method, path: p } = endpoints.uploadSite;
    const result = await apiRequest<ResponseOf<'uploadSite'>>(this.baseUrl, this.token, method, p, form);
    // A .zip is unpacked by the server, which says what it left out.
    if (result.skipped?.length) opts.onSkipped?.(result.skipped);
    return { ...result, skipped: result.skipped ?? [], warnings: result.warnings ?? [] };
  }

  /**
   * Sends files and folders to someone's file request (no account: the request's link is the
   * credential) on the same engine, resuming an interrupted run of the same files: the state
   * file keeps the group and its upload token (0600) until the upload completes.
   */
  async sendToRequest(requestId: string, inputs: string[], opts: RequestSendOptions = {}): Promise<SentFiles> {
    const { files, skipped } = await collectFiles(inputs, { includePrivate: opts.includeDotfiles });
    if (skipped.length > 0) opts.onSkipped?.(skipped);
    if (files.length === 0) throw new ApiError(400, 'invalid_request', 'Nothing to send: no files found');
    const stateFile = opts.stateFile ?? path.join(opts.stateDir ?? path.join(configDir(), 'uploads'), `${fingerprint(`${this.baseUrl}/r/${requestId}`, files)}.json`);
    const sources = files.map((f) => fileSource(f.file, f.path, f.size));
    const saved = await readState(stateFile);
    let uploadToken: string | undefined;
    // Every protocol call after the init carries the upload token; the init itself needs none.
    const transport = nodeTransport(this.baseUrl, () => uploadToken);
    let recorder: ReturnType<typeof stateRecorder> | undefined;
    let partsStored = 0;
    const run = (resume?: UploadState) => {
      uploadToken = resume?.uploadToken;
      return runShareUpload(transport, sources, {
        guest: true,
        resumeGroupId: resume?.groupId,
        init: async (list, signal) => {
          const { uploadToken: token, ...init } = await apiRequest<ResponseOf<'requestUpload'>>(
            this.baseUrl,
            undefined,
            endpoints.requestUpload.method,
            endpointPath('requestUpload', { id: requestId }),
            { name: opts.name, email: opts.email, message: opts.message, password: opts.password, files: list },
            signal,
          );
          uploadToken = token;
          return init;
        },
        retries: opts.retries,
        backoffMs: opts.backoffMs,
        onProgress: opts.onProgress,
        onPlan: async (plan) => {
          const state = resume ?? { baseUrl: this.baseUrl, groupId: plan.groupId, uploadToken };
          if (!resume) await writeState(stateFile, state);
          recorder = stateRecorder(stateFile, state);
          opts.onPlan?.(plan);
        },
        onPartStored: (file, partNumber) => {
          recorder?.partStored(file.clientPath, partNumber);
          opts.onPartDone?.(++partsStored);
        },
        onCompleting: () => recorder?.completing() ?? Promise.resolve(),
        onAbandoned: () => void recorder?.close().then(() => removeState(stateFile)),
      });
    };
    // These files, as sent: what a delivery whose confirmation was lost reports.
    const sent: SentFiles = { file_count: files.length, total_bytes: files.reduce((n, f) => n + f.size, 0), confirmed: false };
    const attempt = async (resume?: UploadState): Promise<SentFiles> => {
      try {
        const share = await run(resume);
        return { file_count: share.file_count, total_bytes: share.total_bytes, confirmed: true };
      } catch (e) {
        if (e instanceof ApiError && e.code === 'already_completed') return sent;
        throw e;
      }
    };
    let result: SentFiles;
    if (saved && saved.baseUrl === this.baseUrl && saved.uploadToken) {
      try {
        result = await attempt(saved);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        // The run that stopped had sent the complete, and its token is spent now: that run
        // delivered the files (sending them again would deliver them twice).
        if (saved.completing && (e.status === 401 || e.status === 404)) result = sent;
        // The old upload is gone (aborted, expired) or its files changed: start afresh.
        else if (e.status === 401 || e.status === 404 || e.code === 'files_changed') {
          await recorder?.close();
          await removeState(stateFile);
          result = await attempt();
        } else throw e;
      }
    } else {
      result = await attempt();
    }
    await recorder?.close();
    await removeState(stateFile);
    return result;
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
    const stateFile = opts.stateFile ?? path.join(opts.stateDir ?? path.join(configDir(), 'uploads'), `${fingerprint(opts.shareId ? `${this.baseUrl}#${opts.shareId}` : this.baseUrl, files)}.json`);
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
        maxDownloads: opts.maxDownloads,
        shareId: opts.shareId,
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
        const done = e.code === 'already_completed' ? await this.getShare(opts.shareId ?? saved.groupId).catch(() => undefined) : undefined;
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
