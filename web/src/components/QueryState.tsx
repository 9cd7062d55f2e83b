/**
 * One component for the three states every read goes through before its data shows: pending (a
 * spinner, or the `loading` element given), failed (the server's message and Try again) and empty
 * (the page's empty text). Pages only write what the data looks like.
 */
import type { ReactNode } from 'react';
import { Text } from '@mantine/core';
import { PageLoader } from './FullScreenLoader';
import { QueryError } from './QueryError';

/** The part of a React Query result this component reads. */
export interface QueryLike<Data> {
  data: Data | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

export function QueryState<Data>({
  query,
  children,
  empty,
  isEmpty = (data) => Array.isArray(data) && data.length === 0,
  loading,
  errorTitle,
}: {
  query: QueryLike<Data>;
  children: (data: Data) => ReactNode;
  /** What an empty answer shows: a text (dimmed, centred) or any element. */
  empty?: ReactNode;
  isEmpty?: (data: Data) => boolean;
  loading?: ReactNode;
  errorTitle?: string;
}) {
  if (query.isPending) return <>{loading ?? <PageLoader />}</>;
  if (query.isError || query.data === undefined) return <QueryError error={query.error} title={errorTitle} onRetry={() => void query.refetch()} />;
  if (empty !== undefined && isEmpty(query.data)) return <EmptyState>{empty}</EmptyState>;
  return <>{children(query.data)}</>;
}

/** An empty list's text. */
export function EmptyState({ children }: { children: ReactNode }) {
  if (typeof children !== 'string') return <>{children}</>;
  return (
    <Text c="dimmed" size="sm" ta="center" py="lg">
      {children}
    </Text>
  );
}
