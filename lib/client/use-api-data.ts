'use client';

import { useCallback, useEffect, useState } from 'react';
import { endpointPath, endpoints, type EndpointName } from '../contract/endpoints';
import type { ResponseOf } from '../contract/operations';
import { api } from './api';
import { useDescribeError } from './error-text';

type GetOperation = { [K in EndpointName]: (typeof endpoints)[K]['method'] extends 'GET' ? K : never }[EndpointName];

/**
 * The consoles' one data-loading hook: GETs the operation `name` (its `{param}`s from `params`)
 * on mount (and when the path or `deps` change), keeps the answer, and turns a failure into a
 * readable message. `reload` fetches again after a change; `setError` lets the caller show its
 * own action's failure in the same place.
 */
export function useApiData<N extends GetOperation>(name: N, params?: Record<string, string>, deps: readonly unknown[] = []) {
  const path = endpointPath(name, params);
  const [data, setData] = useState<ResponseOf<N> | null>(null);
  const [error, setError] = useState('');
  const describeError = useDescribeError();
  const reload = useCallback(async () => {
    try {
      setData(await api<ResponseOf<N>>(path));
      setError('');
    } catch (err) {
      setError(describeError(err));
    }
  }, [path, describeError]);
  useEffect(() => {
    void reload();
  }, [reload, ...deps]);
  return { data, error, setError, reload };
}
