import { useEffect, useState } from 'react';
import { api } from './api';

export interface DatasetInfo {
  name: string;
  description?: string;
  kind?: string;
}

export interface FieldInfo {
  name: string;
  type: string;
  unit?: string;
  description?: string;
  hidden?: boolean;
}

/** A GET that re-runs when `path` (or `version`) changes; null path = nothing to load. */
export function useApi<T>(
  path: string | null,
  version = 0,
): { data: T | null; error: Error | null; loading: boolean } {
  const [state, setState] = useState<{ data: T | null; error: Error | null; loading: boolean }>({
    data: null,
    error: null,
    loading: path !== null,
  });
  useEffect(() => {
    if (path === null) {
      setState({ data: null, error: null, loading: false });
      return;
    }
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    api<T>('GET', path, undefined, { signal: controller.signal }).then(
      (data) => setState({ data, error: null, loading: false }),
      (error: Error) => {
        if (!controller.signal.aborted) setState({ data: null, error, loading: false });
      },
    );
    return () => controller.abort();
  }, [path, version]);
  return state;
}

const fieldCache = new Map<string, Promise<FieldInfo[]>>();

/** A dataset's fields (for completion), fetched once per dataset per page load. */
export function useDatasetFields(dataset: string | null): FieldInfo[] {
  const [fields, setFields] = useState<FieldInfo[]>([]);
  useEffect(() => {
    if (!dataset) {
      setFields([]);
      return;
    }
    let promise = fieldCache.get(dataset);
    if (!promise) {
      promise = api<FieldInfo[]>('GET', `/v2/datasets/${encodeURIComponent(dataset)}/fields`).catch(() => {
        fieldCache.delete(dataset);
        return [];
      });
      fieldCache.set(dataset, promise);
    }
    let live = true;
    void promise.then((f) => live && setFields(f));
    return () => {
      live = false;
    };
  }, [dataset]);
  return fields;
}

/** The dataset only when it exists (while typing `['sam']` the name is not one yet). */
export function knownDataset(name: string | null, datasets: readonly DatasetInfo[] | null): string | null {
  return name !== null && datasets?.some((d) => d.name === name) ? name : null;
}
