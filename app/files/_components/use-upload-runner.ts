'use client';

import { useRef, useState } from 'react';
import type { PickedFile } from '@/lib/client/collect-files';
import type { PendingUpload } from '@/lib/client/pending-uploads';
import { browserTransport } from '@/lib/client/share-upload';
import { ApiError } from '@/lib/client/api';
import { discardUpload, useBrowserUpload } from '@/lib/client/upload-runner';
import { isCancel, isRetryable } from '@/lib/client/upload-engine/retry';
import type { UploadOptions, UploadProgress } from '@/lib/client/upload-engine/types';
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
 * The console's upload runner (lib/client/upload-runner.ts, shared with the request page): one
 * upload at a time, resumable after a reload, a crash or a closed tab, and kept with its files
 * when paused or when the network gave out, so Continue needs no new pick.
 */
export function useUploadRunner(ownerId: string | null, onGroupCreated: () => void = () => {}): UploadRunner {
  const upload = useBrowserUpload();
  const [groupId, setGroupId] = useState<string | null>(null);
  const [target, setTarget] = useState<string | null>(null);
  const [resuming, setResuming] = useState(false);
  const [paused, setPaused] = useState<PausedUpload | null>(null);
  const discardOnStop = useRef(false);

  function run(
    files: PickedFile[],
    opts: { share?: NewShare; shareId?: string; resumeGroupId?: string; handles?: FileSystemHandle[]; record?: PendingUpload },
  ): Promise<ShareDto> {
    discardOnStop.current = false;
    // Resumed (here or from the list): it is no longer the paused one.
    setPaused((p) => (p && p.groupId === opts.resumeGroupId ? null : p));
    // An addition resumed from this browser's record continues as the addition it was.
    const shareId = opts.shareId ?? opts.record?.addsTo;
    setTarget(shareId ?? null);
    setResuming(Boolean(opts.resumeGroupId));
    return upload
      .run(
        {
          files,
          transport: browserTransport,
          ownerId,
          engine: { ...opts.share, shareId },
          resumeGroupId: opts.resumeGroupId,
          record: opts.record,
          handles: opts.handles,
          onPlan: (plan) => {
            setGroupId(plan.groupId);
            if (!opts.resumeGroupId) onGroupCreated();
          },
        },
        async (outcome) => {
          if (outcome.ok) return outcome.share;
          const { error: e, groupId: group, record, loaded, total } = outcome;
          if (isCancel(e) && !discardOnStop.current) {
            // Kept with its files: Continue picks up from the store's part list without a new pick.
            if (group) setPaused({ groupId: group, files, record, loaded, total, shareId });
            throw new ApiError(0, 'paused', 'Paused: the parts sent so far are kept.');
          }
          // The network or the server gave out after every retry: the engine kept the group, and
          // Continue can try again with the same files.
          if (group && isRetryable(e)) setPaused({ groupId: group, files, record, loaded, total, failed: true, shareId });
          if (isCancel(e) && group) await discardUpload(group);
          throw e;
        },
      )
      .finally(() => {
        setGroupId(null);
        setTarget(null);
      });
  }

  return {
    progress: upload.progress,
    groupId,
    target,
    start: (files, share, handles) => run(files, { share, handles }),
    add: (shareId, files, handles) => run(files, { shareId, handles }),
    resume: (id, files, record) => run(files, { resumeGroupId: id, record }),
    resuming,
    cancel: () => {
      discardOnStop.current = true;
      upload.stop();
    },
    pause: () => upload.stop(),
    paused,
    continuePaused: () => {
      if (!paused) return Promise.reject(new ApiError(-1, 'not_paused', 'Nothing is paused.'));
      return run(paused.files, { resumeGroupId: paused.groupId, record: paused.record, shareId: paused.shareId });
    },
    discardPaused: async () => {
      if (!paused) return;
      setPaused(null);
      await discardUpload(paused.groupId);
    },
  };
}
