'use client';

import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { fetchJson } from '@/lib/client/fetch-json';
import { queryKeys } from '@/lib/client/query-keys';
import { RESIDENT_QUERY_MAX_LENGTH, type ResidentSearchResult } from '@/lib/views/types';
import { Button } from './ui/button';
import { errorTextClass, inputClass, mutedTextClass } from './ui/styles';

export const EMPTY_SEARCH_MESSAGE = 'Type an apartment number, e-mail address or reference id.';

/** What the finder hands to the place that shows the results. */
export interface ResidentFinderState {
  /** The search that was run ('' before the first one). */
  q: string;
  query: UseQueryResult<ResidentSearchResult>;
  /** Why the typed search was not run (compact finders show it with their results; see `variant`). */
  formError: string | null;
}

export interface ResidentFinderProps {
  /**
   * 'page' (the Residents page): a search field with a hint and a primary button; a search that
   * cannot run is an alert under the field. 'compact' (the slot dialog): a text field with a small
   * button that says "Searching…" while it runs; the earlier results stay until the new ones
   * arrive, and `formError` is left to the results to show in their own status line.
   */
  variant: 'page' | 'compact';
  /** The field's visible label. */
  label: string;
  /** The search form's accessible name, when the place has more than one search. */
  formLabel?: string;
  hint?: string;
  placeholder?: string;
  /** The search in the URL when the page was loaded, with its server-side result or error. */
  initialQuery?: string;
  initialResult?: ResidentSearchResult | null;
  initialError?: string | null;
  /** Called with each search that runs (the Residents page keeps it in the URL). */
  onSearch?: (q: string) => void;
  /** The results, shown the way the place needs them. */
  children: (state: ResidentFinderState) => ReactNode;
}

/**
 * The one resident finder: apartment number, e-mail address or reference id, searched with
 * GET /api/residents in every system the user manages (the Residents page, and the slot dialog
 * when no resident was preselected). Both share React Query's cache for the same search.
 */
export function ResidentFinder({
  variant,
  label,
  formLabel,
  hint,
  placeholder,
  initialQuery = '',
  initialResult = null,
  initialError = null,
  onSearch,
  children,
}: ResidentFinderProps) {
  const compact = variant === 'compact';
  const [text, setText] = useState(initialQuery);
  const [q, setQ] = useState(initialQuery);
  const [formError, setFormError] = useState<string | null>(null);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const query = useQuery({
    queryKey: queryKeys.residents(q),
    queryFn: ({ signal }) => fetchJson<ResidentSearchResult>(`/api/residents?q=${encodeURIComponent(q)}`, { signal }),
    // The server already answered the search it rendered with an error: no second try on load.
    enabled: q !== '' && !(q === initialQuery && initialError),
    initialData: q === initialQuery && initialResult ? initialResult : undefined,
    placeholderData: compact ? keepPreviousData : undefined,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const value = text.trim();
    if (value === '') {
      setFormError(EMPTY_SEARCH_MESSAGE);
      return;
    }
    if (value.length > RESIDENT_QUERY_MAX_LENGTH) {
      setFormError(`The search may be at most ${RESIDENT_QUERY_MAX_LENGTH} characters.`);
      return;
    }
    setFormError(null);
    setQ(value);
    onSearch?.(value);
    if (value === q) void query.refetch();
  };

  const describedBy = [hint ? hintId : null, formError && !compact ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={compact ? 'flex flex-col gap-2' : 'flex flex-col gap-5'}>
      <form role="search" aria-label={formLabel} onSubmit={submit} className={compact ? 'flex flex-col gap-1' : 'flex flex-col gap-2'} noValidate>
        <label htmlFor={inputId} className="text-sm font-medium">
          {label}
        </label>
        <div className={compact ? 'flex gap-2' : 'flex flex-col gap-2 sm:flex-row'}>
          <input
            id={inputId}
            name="q"
            type={compact ? 'text' : 'search'}
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={RESIDENT_QUERY_MAX_LENGTH}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={describedBy}
            aria-invalid={formError && !compact ? true : undefined}
            className={compact ? inputClass : `${inputClass} sm:max-w-md`}
            placeholder={placeholder}
          />
          {compact ? (
            <Button type="submit" variant="secondary" disabled={query.isFetching}>
              {query.isFetching ? 'Searching…' : 'Search'}
            </Button>
          ) : (
            <Button type="submit" className="min-h-11">
              Search
            </Button>
          )}
        </div>
        {hint ? (
          <p id={hintId} className={mutedTextClass}>
            {hint}
          </p>
        ) : null}
        {formError && !compact ? (
          <p id={errorId} role="alert" className={errorTextClass}>
            {formError}
          </p>
        ) : null}
      </form>
      {children({ q, query, formError })}
    </div>
  );
}
