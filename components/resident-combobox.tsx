'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { type KeyboardEvent, useEffect, useId, useMemo, useState } from 'react';
import { fetchJson } from '@/lib/client/fetch-json';
import { queryKeys } from '@/lib/client/query-keys';
import { parseResidentQuery } from '@/lib/residents/search';
import { apartmentWords, residentWords, systemWords } from './resident-words';
import { RESIDENT_QUERY_MAX_LENGTH, type ApartmentHit, type ResidentHit, type ResidentSearchResult } from '@/lib/residents/search';
import { errorTextClass, inputClass, mutedTextClass } from './ui/styles';
import { useErrorText } from '@/components/use-error-text';

/** Typing pauses this long before a search is sent (each keystroke would be a request otherwise). */
export const RESIDENT_SEARCH_DEBOUNCE_MS = 150;

export interface ResidentComboboxProps {
  /** The field's visible label. */
  label: string;
  hint?: string;
  placeholder?: string;
  /** Restricts the search to one system (the slot dialog). */
  deviceId?: string;
  /** The form field's name (the Residents page submits it as `?q=` without JavaScript). */
  name?: string;
  defaultValue?: string;
  /**
   * The text, when a parent owns it (the Residents page: its form submits it). Given together
   * with `onValueChange`; otherwise the field keeps its own text, starting at `defaultValue`.
   */
  value?: string;
  onValueChange?: (text: string) => void;
  onPick: (hit: ApartmentHit, resident: ResidentHit) => void;
}

interface Option {
  id: string;
  hit: ApartmentHit;
  resident: ResidentHit;
}


function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * Search as you type for a resident (ARIA 1.2 combobox with a listbox grouped per apartment):
 * name, apartment number, e-mail address or reference id. Arrow keys, Home and End move through
 * the residents, Enter picks, Escape closes; a polite status says how many were found.
 */
export function ResidentCombobox({ label, hint, placeholder, deviceId, name, defaultValue = '', value, onValueChange, onPick }: ResidentComboboxProps) {
  const errorText = useErrorText();
  const [ownText, setOwnText] = useState(defaultValue);
  // One owner of the text: the parent when it passes `value`, else this field.
  const text = value ?? ownText;
  const setText = (next: string) => (onValueChange ? onValueChange(next) : setOwnText(next));
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const inputId = useId();
  const listId = useId();
  const hintId = useId();
  const statusId = useId();
  const optionPrefix = useId();

  const t = useTranslations('residents');
  const typed = parseResidentQuery(text);
  const debounced = useDebounced(typed.ok ? typed.query : '', RESIDENT_SEARCH_DEBOUNCE_MS);
  const search = useQuery({
    queryKey: queryKeys.residents(debounced, deviceId),
    queryFn: ({ signal }) =>
      fetchJson<ResidentSearchResult>(`/api/residents?q=${encodeURIComponent(debounced)}${deviceId ? `&deviceId=${encodeURIComponent(deviceId)}` : ''}`, { signal }),
    enabled: debounced !== '',
    // The list stays while the next keystroke's answer is on its way.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const result = debounced === '' ? undefined : search.data;

  const options = useMemo<Option[]>(
    () =>
      (result?.apartments ?? []).flatMap((hit, g) =>
        hit.residents.map((resident, r) => ({ id: `${optionPrefix}-${g}-${r}`, hit, resident })),
      ),
    [result, optionPrefix],
  );
  // A new answer: nothing active until the keys say so.
  useEffect(() => setActive(-1), [result]);
  useEffect(() => {
    if (active < 0) return;
    document.getElementById(options[active]?.id ?? '')?.scrollIntoView({ block: 'nearest' });
  }, [active, options]);

  // Open only with something to choose; "none found" is the status line's to say.
  const expanded = open && debounced !== '' && options.length > 0;
  const pick = (option: Option) => {
    setOpen(false);
    setActive(-1);
    onPick(option.hit, option.resident);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = options.length - 1;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        setOpen(true);
        if (expanded) setActive((i) => (i >= last ? 0 : i + 1));
        return;
      case 'ArrowUp':
        event.preventDefault();
        setOpen(true);
        if (expanded) setActive((i) => (i <= 0 ? last : i - 1));
        return;
      case 'Home':
      case 'End':
        if (!expanded || options.length === 0) return;
        event.preventDefault();
        setActive(event.key === 'Home' ? 0 : last);
        return;
      case 'Enter': {
        const option = expanded ? options[active] : undefined;
        // Without an active resident, Enter submits the form (the server-rendered results).
        if (!option) return;
        event.preventDefault();
        pick(option);
        return;
      }
      case 'Escape':
        if (!expanded) return;
        event.preventDefault();
        setOpen(false);
        setActive(-1);
        return;
    }
  };

  const residentCount = options.length;
  const apartmentCount = result?.apartments.length ?? 0;
  let status = '';
  if (!typed.ok) status = t('query', { problem: typed.problem, max: RESIDENT_QUERY_MAX_LENGTH });
  else if (debounced !== '' && search.isError) status = t('status.failed', { error: errorText(search.error) });
  else if (result && debounced !== '') {
    status =
      residentCount === 0
        ? t('status.none', { q: debounced })
        : t('status.found', { residents: residentCount, apartments: apartmentCount, truncated: result.truncated ? 'yes' : 'no' });
  }
  // Systems the portal holds no copy of yet (issue 49) are searched by exact keys only: said, not hidden.
  const notLoaded = typed.ok && debounced !== '' && result?.notLoaded ? t('notLoaded', { count: result.notLoaded }) : '';
  if (notLoaded && status) status = `${status} ${notLoaded}`;
  const groupLabel = (hit: ApartmentHit) => t('groupLabel', { apartment: apartmentWords(hit, t), system: systemWords(hit, t) });

  return (
    <div className="relative flex w-full flex-col gap-1">
      <label htmlFor={inputId} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={inputId}
        name={name}
        type="text"
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && active >= 0 ? options[active]?.id : undefined}
        aria-describedby={[hint ? hintId : null, statusId].filter(Boolean).join(' ')}
        aria-invalid={typed.ok ? undefined : true}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        // A click on an option keeps the focus (see onMouseDown below); anything else closes.
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        maxLength={RESIDENT_QUERY_MAX_LENGTH}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        className={inputClass}
      />
      {hint ? (
        <p id={hintId} className={mutedTextClass}>
          {hint}
        </p>
      ) : null}
      <p id={statusId} role="status" aria-live="polite" className={typed.ok ? 'sr-only' : errorTextClass}>
        {status}
      </p>
      {notLoaded ? (
        <p className={mutedTextClass} aria-hidden="true">
          {notLoaded}
        </p>
      ) : null}
      <div
        id={listId}
        role="listbox"
        aria-label={t('listLabel', { q: debounced, hasQuery: debounced ? 'yes' : 'no' })}
        hidden={!expanded}
        className="absolute left-0 right-0 top-full z-20 mt-1 max-h-80 overflow-auto rounded-md border border-slate-300 bg-white py-1 text-sm shadow-lg dark:border-slate-600 dark:bg-slate-900"
      >
        {expanded
          ? (result?.apartments ?? []).map((hit, g) => {
              const headingId = `${optionPrefix}-g${g}`;
              return (
                <div key={`${hit.deviceId}:${hit.groupId ?? hit.residents[0]?.userId}`} role="group" aria-labelledby={headingId} className="py-1">
                  <div id={headingId} role="presentation" className="px-3 py-1 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">
                    {groupLabel(hit)}
                  </div>
                  {hit.residents.map((resident) => {
                    const index = options.findIndex((o) => o.hit === hit && o.resident === resident);
                    const option = options[index];
                    if (!option) return null;
                    const selected = index === active;
                    return (
                      <div
                        key={resident.userId}
                        id={option.id}
                        role="option"
                        aria-selected={selected}
                        // Keep the focus in the field; the click picks.
                        onMouseDown={(e) => e.preventDefault()}
                        onClick={() => pick(option)}
                        onMouseMove={() => (selected ? undefined : setActive(index))}
                        className={`flex cursor-pointer flex-col px-3 py-2 sm:flex-row sm:items-baseline sm:gap-3 ${
                          selected ? 'bg-brand-50 text-slate-900 dark:bg-slate-700 dark:text-slate-50' : 'text-slate-900 dark:text-slate-100'
                        }`}
                      >
                        <span className="font-medium">{residentWords(resident, t)}</span>{' '}
                        <span className="break-all text-slate-700 dark:text-slate-300">{resident.email || t('noEmail')}</span>
                      </div>
                    );
                  })}
                </div>
              );
            })
          : null}
      </div>
    </div>
  );
}
