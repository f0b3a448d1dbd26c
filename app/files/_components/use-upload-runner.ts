'use client';

import { useEffect, useRef, useState } from 'react';
import type { PickedFile } from '@/lib/client/collect-files';
import { forgetPendingUpload, markPartDone, savePendingUpload, type PendingUpload } from '@/lib/client/pending-uploads';
import { blobSource, browserTransport } from '@/lib/client/share-upload';
import { ApiError, callOperation } from '@/lib/client/api';
import { runShareUpload } from '@/lib/upload-engine/engine';
import { isCancel, isRetryable } from '@/lib/upload-engine/retry';
import type { UploadOptions, UploadProgress } from '@/lib/upload-engine/types';
import type { ShareDto } from '@/lib/contract/dtos';

/** The share's own fields, as the engine takes them: note, expiry and password always given; maxDownloads null or left out is unlimited. */
export type NewShare = Required<Pick<UploadOptions, 'note' | 'expiresAt' | 'password'>> & Pick<UploadOptions, 'maxDownloads'>;

/** An upload stopped by Pause in this tab: its files stay picked, so Continue needs no new pick. */
export interface PausedUpload {
  groupId: string;
  files: PickedFile[];
  record?: PendingUpload;
  loaded: number;
  total: number;
  /** Stopped by the network or the server after its retries, not by Pause. */
  failed?: boolean;
  /** Files being added to this published share. */
  shareId?: string;
}

export interface UploadRunner {
  progress: UploadProgress | null;
  /** Paused in this tab, ready to continue. */
  paused: PausedUpload | null;
  /** The group being uploaded or resumed. */
  groupId: string | null;
  /** The published share the running upload adds files to (null: a new share). */
  target: string | null;
  resuming: boolean;
  start(files: PickedFile[], share: NewShare, handles?: FileSystemHandle[]): Promise<ShareDto>;
  /** Adds the files to a published share of the caller; answers the whole share. */
  add(shareId: string, files: PickedFile[], handles?: FileSystemHandle[]): Promise<ShareDto>;
  /** `record`: this browser's memory of the upload, kept as it is (handles, times). */
  resume(groupId: string, files: PickedFile[], record?: PendingUpload): Promise<ShareDto>;
  /** Stops and forgets the upload (the server deletes its parts and frees the quota). */
  cancel(): void;
  /** Stops, keeping what arrived: `continuePaused` (or Resume in the list) continues from there. */
  pause(): void;
  /** Continues the paused upload with the same files: only the parts the store lacks are sent. */
  continuePaused(): Promise<ShareDto>;
  /** Forgets the paused upload (the server deletes its parts and frees the quota). */
  discardPaused(): Promise<void>;
}

/**
 * Runs one upload at a time on the engine, keeping its plan in IndexedDB until it completes
 * (so a reload, a crash or a closed tab can resume it), and warns before the page is left
 * while bytes are in flight.
 */
export function useUploadRunner(ownerId: string | null, onGroupCreated: () => void = () => {}): UploadRunner {
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [groupId, setGroupId] = useState<string | null>(null);
  const [target, setTarget] = useState<string | null>(null);
  const [resuming, setResuming] = useState(false);
  const [paused, setPaused] = useState<PausedUpload | null>(null);
  const controller = useRef<AbortController | null>(null);
  const discardOnStop = useRef(false);
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

  async function run(
    files: PickedFile[],
    opts: { share?: NewShare; shareId?: string; resumeGroupId?: string; handles?: FileSystemHandle[]; record?: PendingUpload },
  ): Promise<ShareDto> {
    const c = new AbortController();
    controller.current = c;
    discardOnStop.current = false;
    // Resumed (here or from the list): it is no longer the paused one.
    setPaused((p) => (p && p.groupId === opts.resumeGroupId ? null : p));
    let last = { loaded: 0, total: 0 };
    let record = opts.record;
    // An addition resumed from this browser's record continues as the addition it was.
    const shareId = opts.shareId ?? record?.addsTo;
    setTarget(shareId ?? null);
    setResuming(Boolean(opts.resumeGroupId));
    setProgress({ stage: 'preparing', loaded: 0, total: files.reduce((n, f) => n + f.file.size, 0), speed: 0, eta: Infinity, files: [] });
    // One IndexedDB write at a time: parts finishing together must not lose each other's mark.
    let saving = Promise.resolve();
    const queue = (fn: () => Promise<void>) => (saving = saving.then(fn, fn));
    let group = opts.resumeGroupId ?? '';
    try {
      const share = await runShareUpload(
        browserTransport,
        files.map((f) => blobSource(f.file, f.path)),
        {
          ...opts.share,
          shareId,
          resumeGroupId: opts.resumeGroupId,
          signal: c.signal,
          abortOnCancel: false,
          onProgress: (p) => {
            last = { loaded: p.loaded, total: p.total };
            setProgress({ ...p, files: [...p.files] });
          },
          onPlan: async (plan) => {
            group = plan.groupId;
            setGroupId(plan.groupId);
            if (!opts.resumeGroupId) onGroupCreated();
            const byPath = new Map(files.map((f) => [f.path, f.file]));
            // A resumed upload this browser knows is in IndexedDB already, with the parts marked since.
            if (opts.resumeGroupId && record) return;
            record ??= {
              groupId: plan.groupId,
              ownerId,
              createdAt: new Date().toISOString(),
              note: opts.share?.note ?? '',
              files: plan.files.map((f) => ({ clientPath: f.clientPath, size: byPath.get(f.clientPath)?.size ?? 0, lastModified: byPath.get(f.clientPath)?.lastModified ?? 0 })),
              partsDone: [],
              totalParts: plan.totalParts,
              handles: opts.handles?.length ? opts.handles : undefined,
              addsTo: shareId,
            };
            const saved = record;
            await queue(() => savePendingUpload(saved));
          },
          onPartStored: (f, n) => void queue(() => markPartDone(group, `${f.uploadId}:${n}`)),
          onAbandoned: (g) => void queue(() => forgetPendingUpload(g)),
        },
      );
      // The group this upload ran as: for an addition, not the share it answers.
      await queue(() => forgetPendingUpload(group || share.id));
      return share;
    } catch (e) {
      if (isCancel(e) && !discardOnStop.current) {
        // Kept with its files: Continue picks up from the store's part list without a new pick.
        if (group) setPaused({ groupId: group, files, record, ...last, shareId });
        throw new ApiError(0, 'paused', 'Paused: the parts sent so far are kept.');
      }
      // The network or the server gave out after every retry: the engine kept the group, and
      // Continue can try again with the same files.
      if (group && isRetryable(e)) setPaused({ groupId: group, files, record, ...last, failed: true, shareId });
      if (isCancel(e) && group) {
        await callOperation('abortUpload', { body: { groupId: group } }).catch(() => {});
        await queue(() => forgetPendingUpload(group));
      }
      throw e;
    } finally {
      await saving;
      controller.current = null;
      setProgress(null);
      setGroupId(null);
      setTarget(null);
    }
  }

  return {
    progress,
    groupId,
    target,
    start: (files, share, handles) => run(files, { share, handles }),
    add: (shareId, files, handles) => run(files, { shareId, handles }),
    resume: (id, files, record) => run(files, { resumeGroupId: id, record }),
    resuming,
    cancel: () => {
      discardOnStop.current = true;
      controller.current?.abort();
    },
    pause: () => controller.current?.abort(),
    paused,
    continuePaused: () => {
      if (!paused) return Promise.reject(new ApiError(-1, 'not_paused', 'Nothing is paused.'));
      return run(paused.files, { resumeGroupId: paused.groupId, record: paused.record, shareId: paused.shareId });
    },
    discardPaused: async () => {
      if (!paused) return;
      setPaused(null);
      await callOperation('abortUpload', { body: { groupId: paused.groupId } }).catch(() => {});
      await forgetPendingUpload(paused.groupId);
    },
  };
}
