/**
 * What the upload engine needs from its environment, and what it reports. The engine itself
 * (engine.ts) runs unchanged in a browser and in Node: the browser supplies Blob slices and an
 * XMLHttpRequest transport, Node supplies file ranges and an http.request transport.
 */
import type { InitFile, InitResult } from '../../contract/upload-protocol';
import type { ShareDto } from '../../contract/dtos';

export type { ShareDto };

/** One local file to upload, by the path it has in the share. */
export interface UploadSource<Body> {
  clientPath: string;
  size: number;
  contentType?: string;
  /** The bytes [start, end) of the file, as the transport sends them (a Blob slice, a file range). */
  slice(start: number, end: number): Body;
}

export interface PutRequest<Body> {
  url: string;
  /** True for the service's own API (credentials go along); false for a presigned store URL. */
  api: boolean;
  headers: Record<string, string>;
  body: Body;
  length: number;
  signal: AbortSignal;
  /** Bytes handed to the network so far in this attempt (monotonic within an attempt). */
  onProgress(sent: number): void;
}

/**
 * HTTP for the engine. Failures are ApiError (lib/client/api.ts): status 0 for the network,
 * the HTTP status with the contract's code otherwise, status -1 for an unreadable local file.
 */
export interface UploadTransport<Body> {
  json<T>(method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal): Promise<T>;
  put(req: PutRequest<Body>): Promise<{ text: string; etag: string | null }>;
  /**
   * A hint that `body` is the next part to go: a transport may start reading it now, so that
   * its bytes are ready when its put starts (the next part's read overlaps this part's round
   * trip). Optional; a transport that ignores it reads the body in put as before.
   */
  prefetch?(body: Body, length: number): void;
  /** The parts are over (sent, failed or cancelled): what was read ahead and not sent is let go. */
  dropPrefetched?(): void;
}

export interface FileProgress {
  clientPath: string;
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
  /** Seconds left at that speed (Infinity while unknown). */
  eta: number;
  files: FileProgress[];
}

export interface UploadPlan {
  groupId: string;
  mode: 'direct' | 'proxy';
  partSize: number;
  parallel: number;
  files: InitFile[];
  totalParts: number;
  /** Parts an earlier, interrupted run already stored: not sent again. */
  storedParts: number;
  resumed: boolean;
}

export interface UploadOptions {
  note?: string;
  expiresAt?: string | null;
  password?: string;
  /** Completed downloads after which guests get 410 download_limit; null/undefined: unlimited. */
  maxDownloads?: number | null;
  /** Add the files to this published share of the caller (init with share_id) instead of making one. */
  shareId?: string;
  /** Cancels the upload; with `abortOnCancel` (the default) the server forgets it too. */
  signal?: AbortSignal;
  abortOnCancel?: boolean;
  /**
   * Starts the group another way than POST /api/shares/upload/init: a guest's upload to a file
   * request (POST /api/requests/:id/upload), whose upload token the caller's transport then sends.
   */
  init?(files: { clientPath: string; size: number; contentType?: string }[], signal: AbortSignal): Promise<InitResult>;
  /** The caller holds an upload token, not a session: no capabilities call (the group's mode decides). */
  guest?: boolean;
  /** Resume this pending upload (POST /api/shares/upload/status) instead of starting one. */
  resumeGroupId?: string;
  onProgress?(p: UploadProgress): void;
  /** Once the group exists and before any part is sent: keep it to resume after a crash. */
  onPlan?(plan: UploadPlan): void | Promise<void>;
  /** Every part is stored and complete is next: awaited (a client keeps "completing" to resume honestly after a crash). */
  onCompleting?(): Promise<void>;
  /** After each part the store confirmed. */
  onPartStored?(file: InitFile, partNumber: number, etag: string): void;
  /** When a failure made the engine abort the group on the server: nothing is left to resume. */
  onAbandoned?(groupId: string): void;
  /** Retries per part after the first attempt (default: the server's maxRetries, 4). */
  retries?: number;
  /** The wait before retry n (1-based); default exponential with jitter. */
  backoffMs?(attempt: number): number;
  /** An attempt that moves no byte for this long is dropped and retried (default 60 s). */
  stallMs?: number;
}
