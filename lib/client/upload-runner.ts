'use client';

import { useEffect, useRef, useState } from 'react';
import { runShareUpload } from './upload-engine/engine';
import type { ShareDto, UploadOptions, UploadPlan, UploadProgress, UploadTransport } from './upload-engine/types';
import { callOperation } from './api';
import type { PickedFile } from './collect-files';
import { forgetPendingUpload, markPartDone, savePendingUpload, type PendingUpload } from './pending-uploads';
import { blobSource } from './share-upload';
import { sendVideoPosters } from './video-poster';

/**
 * The browser's upload runner, one for both pages that upload: the member console (/files,
 * with its session) and a file request's page (/r/<id>, a guest with an upload token). It runs
 * the upload engine (lib/client/upload-engine: parts direct to the store or through the server,
 * retries, progress with speed and ETA) and keeps the upload's plan in IndexedDB until it
 * completes, each stored part marked as it lands, so a reload, a crash or a closed tab can
 * resume it; while bytes are in flight it warns before the page is left.
 */

/** What the engine is told besides the files: the share's fields, or how a guest's upload starts. */
export type RunnerEngineOptions = Pick<UploadOptions, 'note' | 'expiresAt' | 'password' | 'maxDownloads' | 'shareId' | 'init' | 'guest'>;

export interface BrowserUpload {
  files: PickedFile[];
  transport: UploadTransport<Blob>;
  /** Whose upload this browser remembers it as: a member's id (null: the Admin Token) or `request:<id>`. */
  ownerId: string | null;
  engine?: RunnerEngineOptions;
  /** Continue this group (upload/status) instead of starting one. */
  resumeGroupId?: string;
  /** This browser's memory of the group being resumed: kept as it is (handles, times, parts). */
  record?: PendingUpload | null;
  /** Dropped files' handles, kept with the record so a resume needs no new pick. */
  handles?: FileSystemHandle[];
  /** A guest's upload token once the init gave it: kept with the record, its only credential. */
  uploadToken?: () => string | undefined;
  /** Once the group exists, before any part is sent. */
  onPlan?(plan: UploadPlan): void;
}

export type UploadOutcome =
  | { ok: true; share: ShareDto; groupId: string }
  | {
      ok: false;
      error: unknown;
      /** The group the run made or resumed ('' when it failed before the server made one). */
      groupId: string;
      /** This browser's memory of it (undefined when it failed before the plan). */
      record?: PendingUpload;
      /** Progress when it stopped. */
      loaded: number;
      total: number;
    };

const sizeOf = (files: PickedFile[]) => files.reduce((n, f) => n + f.file.size, 0);

/**
 * Runs one upload to its end and says how it ended; never throws. On success this browser's
 * record is forgotten; on failure it is kept (the caller decides: resume later, or discardUpload).
 */
export async function runBrowserUpload(
  u: BrowserUpload,
  signal: AbortSignal,
  onProgress: (p: UploadProgress) => void,
): Promise<UploadOutcome> {
  let record = u.record ?? undefined;
  let group = u.resumeGroupId ?? '';
  let last = { loaded: 0, total: sizeOf(u.files) };
  // One IndexedDB write at a time: parts finishing together must not lose each other's mark.
  let saving = Promise.resolve();
  const queue = (fn: () => Promise<void>) => (saving = saving.then(fn, fn));
  onProgress({ stage: 'preparing', loaded: 0, total: last.total, speed: 0, eta: Infinity, files: [] });
  try {
    const share = await runShareUpload(
      u.transport,
      u.files.map((f) => blobSource(f.file, f.path)),
      {
        ...u.engine,
        resumeGroupId: u.resumeGroupId,
        signal,
        // Stopped by the caller: the group stays on the server until it is continued or discarded.
        abortOnCancel: false,
        onProgress: (p) => {
          last = { loaded: p.loaded, total: p.total };
          onProgress({ ...p, files: [...p.files] });
        },
        onPlan: async (plan) => {
          group = plan.groupId;
          u.onPlan?.(plan);
          // A resumed upload this browser knows is in IndexedDB already, with the parts marked since.
          if (u.resumeGroupId && record) return;
          const byPath = new Map(u.files.map((f) => [f.path, f.file]));
          record ??= {
            groupId: plan.groupId,
            ownerId: u.ownerId,
            createdAt: new Date().toISOString(),
            note: u.engine?.note ?? '',
            files: plan.files.map((f) => ({ clientPath: f.clientPath, size: byPath.get(f.clientPath)?.size ?? 0, lastModified: byPath.get(f.clientPath)?.lastModified ?? 0 })),
            partsDone: [],
            totalParts: plan.totalParts,
            handles: u.handles?.length ? u.handles : undefined,
            uploadToken: u.uploadToken?.(),
            addsTo: u.engine?.shareId,
          };
          const saved = record;
          await queue(() => savePendingUpload(saved));
        },
        onPartStored: (f, n) => void queue(() => markPartDone(group, `${f.uploadId}:${n}`)),
        onAbandoned: (g) => void queue(() => forgetPendingUpload(g)),
      },
    );
    // The group this upload ran as: for an addition, not the share it answers.
    const groupId = group || share.id;
    await queue(() => forgetPendingUpload(groupId));
    // A member's videos get their poster frames from this browser when the server has no ffmpeg
    // (after the upload, never holding it; a guest has no session to send them with).
    if (!u.engine?.guest) void sendVideoPosters(share.id, u.files).catch(() => {});
    return { ok: true, share, groupId };
  } catch (error) {
    return { ok: false, error, groupId: group, record, ...last };
  } finally {
    await saving;
  }
}

/**
 * Forgets an unfinished upload: the server deletes its parts and frees the quota (a guest's
 * with its upload token), and this browser its record.
 */
export async function discardUpload(groupId: string, uploadToken?: string): Promise<void> {
  await callOperation('abortUpload', { body: { groupId }, token: uploadToken }).catch(() => {});
  await forgetPendingUpload(groupId);
}

export interface BrowserUploadState {
  /** The running upload's progress (null: none runs). */
  progress: UploadProgress | null;
  /**
   * Runs an upload, one at a time; `settle` sees how it ended while its progress still shows
   * (a discard on the server, the page's own state) and its answer is run()'s.
   */
  run<T>(u: BrowserUpload, settle: (outcome: UploadOutcome) => T | Promise<T>): Promise<T>;
  /** Stops the running upload: the engine cancels, its group stays on the server. */
  stop(): void;
}

/** The React side: the progress to show, Stop, and the warning before leaving while an upload runs. */
export function useBrowserUpload(): BrowserUploadState {
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const controller = useRef<AbortController | null>(null);
  const active = progress !== null;

  useEffect(() => {
    if (!active) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);

  return {
    progress,
    run: async (u, settle) => {
      const c = new AbortController();
      controller.current = c;
      try {
        return await settle(await runBrowserUpload(u, c.signal, setProgress));
      } finally {
        controller.current = null;
        setProgress(null);
      }
    },
    stop: () => controller.current?.abort(),
  };
}
