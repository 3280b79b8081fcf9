import { getTranslations } from 'next-intl/server';

export default async function Loading() {
  const t = await getTranslations('apartment');
  return (
    <div className="flex flex-col gap-4" aria-busy="true">
      <p className="sr-only" role="status">
        {t('loading')}
      </p>
      <div className="h-4 w-56 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      <div className="h-8 w-64 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      <div className="h-32 w-full animate-pulse rounded bg-slate-100 dark:bg-slate-900" />
      <div className="h-48 w-full animate-pulse rounded bg-slate-100 dark:bg-slate-900" />
    </div>
  );
}
