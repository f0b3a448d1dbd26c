'use client';

import { useCallback, useEffect, useState } from 'react';
import { api } from './api';
import { describeError } from './format';

/**
 * The consoles' one data-loading hook: GETs `path` on mount (and when `path` or `deps` change),
 * keeps the answer, and turns a failure into a readable message. `reload` fetches again after a
 * change; `setError` lets the caller show its own action's failure in the same place.
 */
export function useApiData<T>(path: string, deps: readonly unknown[] = []) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState('');
  const reload = useCallback(async () => {
    try {
      setData(await api<T>(path));
      setError('');
    } catch (err) {
      setError(describeError(err));
    }
  }, [path]);
  useEffect(() => {
    void reload();
  }, [reload, ...deps]);
  return { data, error, setError, reload };
}
