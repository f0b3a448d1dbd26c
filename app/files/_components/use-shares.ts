'use client';

import { useCallback, useEffect, useState } from 'react';
import { ApiError, callOperation } from '@/lib/client/api';
import { forgetPendingUpload, listPendingUploads, type PendingUpload } from '@/lib/client/pending-uploads';
import { usePagedList, useSettled } from '@/lib/client/use-paged-list';
import type { ShareSummaryDto } from '@/lib/contract/dtos';

export interface SharesData {
  /** The shares of the pages loaded so far, newest first (null until the first page). */
  shares: ShareSummaryDto[] | null;
  error: string;
  /** This browser's records of unfinished uploads, by group id. */
  pending: Map<string, PendingUpload>;
  /** This browser's records of unfinished additions (files being added to a published share), by that share's id. */
  additions: Map<string, PendingUpload>;
  reload: () => Promise<void>;
  hasMore: boolean;
  loading: boolean;
  loadMore: () => Promise<void>;
  /** The search box's text; the list is searched on the server. */
  query: string;
  setQuery: (q: string) => void;
}

/**
 * The one loader of the /files console's share data: the share list a page at a time from the
 * API, and this browser's unfinished-upload records (IndexedDB), pruned of groups the server no
 * longer holds as pending (completed elsewhere, discarded, cleaned by the janitor). A record
 * whose group is not on the loaded pages is asked about by id, never dropped for being unseen.
 */
export function useShares(enabled: boolean, ownerId: string | null): SharesData {
  const [query, setQuery] = useState('');
  const q = useSettled(query);
  const list = usePagedList('listShares', { q, enabled });
  const [pending, setPending] = useState(new Map<string, PendingUpload>());
  const [additions, setAdditions] = useState(new Map<string, PendingUpload>());
  const shares = list.entries;

  useEffect(() => {
    if (shares === null) return;
    let live = true;
    void (async () => {
      const state = new Map(shares.map((s) => [s.id, s.upload_state]));
      const kept = new Map<string, PendingUpload>();
      const adding = new Map<string, PendingUpload>();
      for (const r of (await listPendingUploads()).filter((r) => r.ownerId === ownerId)) {
        if (r.addsTo) {
          // An addition is never listed (nor found by id): its upload status says whether it is still pending.
          const stillPending = await callOperation('uploadStatus', { body: { groupId: r.groupId } }).then(
            () => true,
            (e) => !(e instanceof ApiError && (e.status === 404 || e.code === 'already_completed')),
          );
          if (stillPending) adding.set(r.addsTo, r);
          else await forgetPendingUpload(r.groupId);
          continue;
        }
        let uploadState: string | undefined = state.get(r.groupId);
        if (uploadState === undefined) {
          uploadState = await callOperation('getShare', { params: { id: r.groupId } }).then(
            (x) => x.share.upload_state,
            (e) => (e instanceof ApiError && e.status === 404 ? 'gone' : 'pending'),
          );
        }
        if (uploadState === 'pending') kept.set(r.groupId, r);
        else await forgetPendingUpload(r.groupId);
      }
      if (live) {
        setPending(kept);
        setAdditions(adding);
      }
    })();
    return () => {
      live = false;
    };
  }, [shares, ownerId]);

  const { reload, loadMore } = list;
  return {
    shares,
    error: list.error,
    pending,
    additions,
    reload: useCallback(() => reload(), [reload]),
    hasMore: list.hasMore,
    loading: list.loading,
    loadMore,
    query,
    setQuery,
  };
}

/**
 * Bytes the member's own unfinished uploads hold of the quota (those on the loaded pages: the
 * newest). Guests' uploads to their requests are not counted: the member's own come first.
 */
export const reservedBy = (shares: ShareSummaryDto[] | null, userId: string | undefined) =>
  (shares ?? []).filter((s) => s.upload_state === 'pending' && s.user_id === userId && s.received === null).reduce((n, s) => n + s.total_bytes, 0);
