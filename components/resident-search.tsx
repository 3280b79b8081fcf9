'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { type FormEvent, useState } from 'react';
import { apartmentHref, parseResidentQuery } from '@/lib/residents/search';
import { ResidentCombobox } from './resident-combobox';
import { Button } from './ui/button';

/** The search in the URL, as the server page reads it. */
function urlQuery(raw: string | null): string {
  const parsed = parseResidentQuery(raw);
  return parsed.ok ? parsed.query : (raw ?? '');
}

/**
 * The Residents page's search: as you type, picking a resident opens their apartment. Without
 * JavaScript it is a plain GET form, and the server renders the results of `?q=`.
 *
 * The text has one owner, this component (decision 018), which the layout keeps mounted across
 * `?q=` changes. Submitting writes the text to the URL; a URL that changes under it (the menu's
 * Residents link, Back) replaces the text only while nothing was typed since — so what is typed
 * during a navigation is never thrown away.
 */
export function ResidentSearch() {
  const router = useRouter();
  const pathname = usePathname();
  const t = useTranslations('residents');
  const query = urlQuery(useSearchParams().get('q'));
  const [text, setText] = useState(query);
  const [typedSince, setTypedSince] = useState(false);
  const [seenQuery, setSeenQuery] = useState(query);
  if (seenQuery !== query) {
    // React's "adjust state when a prop changes", during render rather than in an effect.
    setSeenQuery(query);
    if (!typedSince) setText(query);
  }
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTypedSince(false);
    const q = text.trim();
    router.push(q === '' ? pathname : `${pathname}?q=${encodeURIComponent(q)}`);
  };
  return (
    <form method="get" action="/residents" role="search" aria-label={t('search.formLabel')} onSubmit={onSubmit} className="flex flex-col gap-2 sm:flex-row sm:items-start">
      <div className="w-full sm:max-w-md">
        <ResidentCombobox
          label={t('search.label')}
          hint={t('search.hint')}
          placeholder={t('search.placeholder')}
          name="q"
          value={text}
          onValueChange={(next) => {
            setTypedSince(true);
            setText(next);
          }}
          onPick={(hit) => router.push(apartmentHref(hit))}
        />
      </div>
      <Button type="submit" className="min-h-11 sm:mt-6">
        {t('search.submit')}
      </Button>
    </form>
  );
}
