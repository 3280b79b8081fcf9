'use client';

import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { inputClass, labelClass, mutedTextClass } from '@/components/ui/styles';

/**
 * A feed's address, shown once (when made or rotated): read-only, selected on focus, with a Copy
 * button whose result is said in a status line. Where the clipboard is refused (no permission, an
 * insecure origin), the line says to copy by hand.
 */
export function FeedUrl({ url }: { url: string }) {
  const t = useTranslations('feeds');
  const inputId = useId();
  const noteId = useId();
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <div className="flex flex-col gap-2 rounded-md border border-amber-400 bg-amber-50 p-3 dark:border-amber-600 dark:bg-amber-950">
      <label htmlFor={inputId} className={labelClass}>
        {t('urlLabel')}
      </label>
      <div className="flex flex-wrap items-center gap-2 sm:flex-nowrap">
        <input
          id={inputId}
          type="text"
          readOnly
          value={url}
          aria-describedby={noteId}
          onFocus={(event) => event.currentTarget.select()}
          className={`${inputClass} font-mono text-xs`}
        />
        <Button
          variant="secondary"
          onClick={() => {
            setCopy('idle');
            navigator.clipboard.writeText(url).then(
              () => setCopy('copied'),
              () => setCopy('failed'),
            );
          }}
        >
          {t('copy')}
        </Button>
      </div>
      <p role="status" className="text-sm font-medium text-emerald-800 dark:text-emerald-200">
        {copy === 'copied' ? t('copied') : copy === 'failed' ? t('copyFailed') : ''}
      </p>
      <p id={noteId} className={mutedTextClass}>
        {t('shownOnce')}
      </p>
    </div>
  );
}
