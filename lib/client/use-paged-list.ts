'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { endpointPath } from '../contract/endpoints';
import { LIST_FIELD, pageQueryString, type ListEntry, type ListName } from '../contract/list-types';
import { api } from './api';
import { useDescribeError } from './error-text';

type AnyPage = Record<string, unknown> & { next_cursor: string | null };

export interface PagedList<T> {
  /** The entries of every page loaded so far (null until the first page arrives). */
  entries: T[] | null;
  error: string;
  setError: (message: string) => void;
  /** Another page exists on the server. */
  hasMore: boolean;
  loading: boolean;
  loadMore: () => Promise<void>;
  /** Starts again from the first page (after a change, or when `q` changes). */
  reload: () => Promise<void>;
}

/**
 * The consoles' one loader of a paged list: the first page at once, the next on `loadMore()`
 * (a scroll sentinel or a button), `q` searched on the server. An answer for a superseded
 * query (typed ahead, reloaded) is dropped, so a slow page never lands under a newer search.
 */
export function usePagedList<N extends ListName>(name: N, opts: { q?: string; enabled?: boolean; limit?: number } = {}): PagedList<ListEntry<N>> {
  const { q = '', enabled = true, limit } = opts;
  const [entries, setEntries] = useState<ListEntry<N>[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState('');
  const describeError = useDescribeError();
  const [loading, setLoading] = useState(false);
  const generation = useRef(0);

  const fetchPage = useCallback(
    async (after: string | null) => {
      const page = await api<AnyPage>(endpointPath(name) + pageQueryString({ q: q.trim(), limit, cursor: after ?? undefined }));
      return { entries: page[LIST_FIELD[name]] as ListEntry<N>[], next: page.next_cursor };
    },
    [name, q, limit],
  );

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const page = await fetchPage(null);
      if (mine !== generation.current) return;
      setEntries(page.entries);
      setCursor(page.next);
      setError('');
    } catch (err) {
      if (mine === generation.current) setError(describeError(err));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, [fetchPage, describeError]);

  const loadMore = useCallback(async () => {
    if (cursor === null || loading) return;
    const mine = generation.current;
    setLoading(true);
    try {
      const page = await fetchPage(cursor);
      if (mine !== generation.current) return;
      setEntries((prev) => [...(prev ?? []), ...page.entries]);
      setCursor(page.next);
    } catch (err) {
      if (mine === generation.current) setError(describeError(err));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, [cursor, loading, fetchPage, describeError]);

  useEffect(() => {
    if (enabled) void reload();
  }, [enabled, reload]);

  return { entries, error, setError, hasMore: cursor !== null, loading, loadMore, reload };
}

/** `value`, once it has stopped changing for `ms` (a search box's query). */
export function useSettled<T>(value: T, ms = 250): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}
