'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { startTransition } from 'react';
import { QueryError } from './ui/query-error';

/** Body of an error.tsx boundary: a clear message and a Retry that renders the page again. */
export function PageError({ title, reset }: { title: string; reset: () => void }) {
  const t = useTranslations('errorPages.pageError');
  const router = useRouter();
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <QueryError
        title={t('title')}
        message={t('message')}
        onRetry={() =>
          startTransition(() => {
            router.refresh();
            reset();
          })
        }
      />
    </div>
  );
}
