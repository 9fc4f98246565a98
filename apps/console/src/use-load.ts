import { useCallback, useEffect, useState } from 'preact/hooks';

/** Loads data for a page: value, error, and a reload function. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [value, setValue] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const reload = useCallback(() => {
    load()
      .then((v) => {
        setValue(v);
        setError(null);
      })
      .catch(setError);
  }, deps);
  useEffect(reload, [reload]);
  return { value, error, reload };
}
