'use client';

import { useCallback, useEffect, useState } from 'react';
import { callOperation } from '@/lib/client/api';
import { describeError } from '@/lib/client/format';
import { forgetPendingUpload, listPendingUploads, type PendingUpload } from '@/lib/client/pending-uploads';
import type { ShareDto } from '@/lib/shares/share-dto';

export interface SharesData {
  shares: ShareDto[] | null;
  error: string;
  /** This browser's records of unfinished uploads, by group id. */
  pending: Map<string, PendingUpload>;
  reload: () => Promise<void>;
}

/**
 * The one loader of the /files console's share data: the share list from the API and this
 * browser's unfinished-upload records (IndexedDB), pruned of groups the server no longer
 * holds as pending (completed elsewhere, discarded, cleaned by the janitor).
 */
export function useShares(enabled: boolean, ownerId: string | null): SharesData {
  const [shares, setShares] = useState<ShareDto[] | null>(null);
  const [error, setError] = useState('');
  const [pending, setPending] = useState(new Map<string, PendingUpload>());
  const reload = useCallback(async () => {
    try {
      const list = (await callOperation('listShares')).shares;
      const stillPending = new Set(list.filter((s) => s.upload_state === 'pending').map((s) => s.id));
      const records = (await listPendingUploads()).filter((r) => r.ownerId === ownerId);
      for (const r of records) if (!stillPending.has(r.groupId)) await forgetPendingUpload(r.groupId);
      setPending(new Map(records.filter((r) => stillPending.has(r.groupId)).map((r) => [r.groupId, r])));
      setShares(list);
      setError('');
    } catch (err) {
      setError(describeError(err));
    }
  }, [ownerId]);
  useEffect(() => {
    if (enabled) void reload();
  }, [enabled, reload]);
  return { shares, error, pending, reload };
}

/** Bytes the member's own unfinished uploads hold of the quota. */
export const reservedBy = (shares: ShareDto[] | null, userId: string | undefined) =>
  (shares ?? []).filter((s) => s.upload_state === 'pending' && s.user_id === userId).reduce((n, s) => n + s.total_bytes, 0);
