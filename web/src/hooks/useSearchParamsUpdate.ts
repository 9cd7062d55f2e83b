import { useSearchParams } from 'react-router-dom';

/**
 * The page's address query (filters, search, page number) and a function that changes some of its
 * keys at once, replacing the history entry; null or '' removes a key.
 */
export function useSearchParamsUpdate(): [URLSearchParams, (changes: Record<string, string | null>) => void] {
  const [params, setParams] = useSearchParams();
  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: true });
  };
  return [params, update];
}
