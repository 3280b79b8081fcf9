'use client';

import { useTranslations } from 'next-intl';
import { Button } from '@/components/ui/button';
import { useErrorText } from '@/components/use-error-text';

/** A failed load: what went wrong, in words, and a way to try again. */
export function QueryError({ title, message, onRetry, retrying = false }: { title: string; message: string; onRetry: () => void; retrying?: boolean }) {
  const t = useTranslations('common');
  return (
    <div role="alert" className="flex flex-col items-start gap-2 rounded-lg border border-red-300 bg-red-50 p-4 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50">
      <p className="font-semibold">{title}</p>
      <p className="text-sm">{message}</p>
      <Button variant="secondary" onClick={onRetry} disabled={retrying}>
        {retrying ? t('retrying') : t('retry')}
      </Button>
    </div>
  );
}

/** The parts of a TanStack query a stale-data notice needs. */
export interface RefetchableQuery {
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => Promise<unknown>;
}

/**
 * A live view whose refetch failed while older data is still shown: the namespace's
 * `updateFailed` / `updateFailedDetail` ("… from the last successful load") and a Retry.
 * Nothing while the query is fine.
 */
export function StaleDataError({ query, namespace }: { query: RefetchableQuery; namespace: 'overview' | 'grid' | 'apartment' }) {
  const t = useTranslations(namespace);
  const errorText = useErrorText();
  if (!query.isError) return null;
  return (
    <QueryError
      title={t('updateFailed')}
      message={t('updateFailedDetail', { error: errorText(query.error) })}
      onRetry={() => void query.refetch()}
      retrying={query.isFetching}
    />
  );
}
