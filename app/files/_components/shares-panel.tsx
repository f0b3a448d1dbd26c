'use client';

import type { ReactNode } from 'react';
import type { PickedFile } from '@/lib/client/collect-files';
import { ShareList } from './share-list';
import type { FilesSession } from './types';
import { UploadForm } from './upload-form';
import { reservedBy, type SharesData } from './use-shares';
import { useUploadRunner } from './use-upload-runner';

/**
 * The shares view: a new-share form above the list; one upload (new or resumed) at a time.
 * `layout` places the two (the phone layout puts them on separate tabs, both kept mounted).
 */
export function SharesPanel({
  session,
  data,
  onUsageChanged,
  onShowList,
  layout = (upload, list) => (
    <>
      {upload}
      {list}
    </>
  ),
}: {
  session: FilesSession;
  data: SharesData;
  onUsageChanged: () => void;
  layout?: (upload: ReactNode, list: ReactNode) => ReactNode;
  /** Shows the list when it is not beside the form (the phone layout's Shares tab). */
  onShowList?: () => void;
}) {
  const user = session.user;
  // The new share shows up as pending (and holding its quota) as soon as the server has it.
  const runner = useUploadRunner(user?.id ?? null, () => void data.reload());
  // Files added to a published share: a runner of their own, so the New share card shows only its own upload.
  const adder = useUploadRunner(user?.id ?? null);
  const busy = runner.progress !== null || adder.progress !== null;
  const free = user && session.role !== 'admin' ? Math.max(0, user.quota_bytes - user.used_bytes - reservedBy(data.shares, user.id)) : Infinity;
  const changed = () => {
    void data.reload();
    onUsageChanged();
  };
  async function resume(groupId: string, files: PickedFile[]) {
    try {
      await runner.resume(groupId, files, data.pending.get(groupId));
    } finally {
      changed();
    }
  }
  // The member's own unfinished uploads (this console can resume them), and guests' uploads to
  // their requests (only each sender can).
  const ownPending = (data.shares ?? []).filter((s) => s.upload_state === 'pending' && s.user_id === (user?.id ?? null));
  const resumable = ownPending.filter((s) => s.received === null).length;
  const guestsPending = ownPending.length - resumable;
  return layout(
    <UploadForm runner={runner} free={free} resumable={resumable} guestsPending={guestsPending} blocked={adder.progress !== null} onDone={changed} onShowList={onShowList} />,
    <ShareList
      session={session}
      data={data}
      busy={busy}
      adder={adder}
      live={runner.progress && runner.groupId ? { groupId: runner.groupId, loaded: runner.progress.loaded, total: runner.progress.total } : null}
      onResume={resume}
      onChanged={changed}
    />,
  );
}
