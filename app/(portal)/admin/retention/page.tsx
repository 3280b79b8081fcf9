import type { Metadata } from 'next';
import { getLocale, getTranslations } from 'next-intl/server';
import { ActionForm } from '@/components/admin/action-form';
import { cardClass, inputClass, labelClass, mutedTextClass } from '@/components/ui/styles';
import { requirePageAdmin } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { formatClock, formatDate } from '@/lib/i18n/format';
import { AGED_CLASSES, RETENTION_PERIODS, readRetentionJobState, readRetentionPolicy } from '@/lib/personal-data/retention-settings';
import { saveRetentionAction } from '../actions';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('retention');
  return { title: t('title') };
}

// Admin → Retention: each age-based class's period (the admin's, the environment's or the
// default, and which), a form to change it, and what the job's last run did.
export default async function RetentionPage() {
  await requirePageAdmin('/admin/retention');
  const { db } = await getDb();
  const [t, locale, policy, job] = await Promise.all([getTranslations('retention'), getLocale(), readRetentionPolicy(db, env), readRetentionJobState(db)]);
  const counts = Object.entries(job.lastResult?.counts ?? {});
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
      <p className={mutedTextClass}>{t('intro')}</p>
      <section aria-labelledby="retention-classes" className="flex flex-col gap-4">
        <h2 id="retention-classes" className="text-lg font-medium">{t('classesHeading')}</h2>
        {AGED_CLASSES.map((retentionClass) => {
          const p = policy[retentionClass];
          const { variable, defaultAmount, key } = RETENTION_PERIODS[retentionClass];
          const name = t('className', { key });
          const fallback = t('amount', { unit: p.unit, amount: env[variable] ?? defaultAmount });
          const id = `retention-${retentionClass}`;
          return (
            <section key={retentionClass} aria-labelledby={`${id}-heading`} className={cardClass}>
              <h3 id={`${id}-heading`} className="font-medium">{name}</h3>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t('classHint', { key })}</p>
              <p className="mt-2 text-sm">
                <strong>{t('effective', { period: t('amount', { unit: p.unit, amount: p.amount }) })}</strong> ({t('source', { source: p.source, variable })})
              </p>
              <ActionForm action={saveRetentionAction} submitLabel={t('save')} submitAriaLabel={t('saveOf', { class: name })} submitVariant="secondary" className="mt-3 flex flex-wrap items-end gap-2">
                <input type="hidden" name="retentionClass" value={retentionClass} />
                <div className="flex flex-col gap-1">
                  <label htmlFor={id} className={labelClass}>{t('inputLabel', { unit: p.unit })}</label>
                  <input
                    id={id}
                    name="amount"
                    inputMode="numeric"
                    defaultValue={p.source === 'admin' ? String(p.amount) : ''}
                    placeholder={String(env[variable] ?? defaultAmount)}
                    className={inputClass}
                    aria-label={t('inputLabelOf', { unit: p.unit, class: name })}
                    aria-describedby={`${id}-hint`}
                  />
                  <p id={`${id}-hint`} className="text-xs text-slate-500 dark:text-slate-400">{t('inputHint', { min: p.min, max: p.max, fallback })}</p>
                </div>
              </ActionForm>
            </section>
          );
        })}
        <p className={mutedTextClass}>{t('exempt')}</p>
      </section>
      <section aria-labelledby="retention-job" className={cardClass}>
        <h2 id="retention-job" className="mb-2 text-lg font-medium">{t('jobHeading')}</h2>
        {job.running ? <p className="text-sm">{t('running')}</p> : null}
        {job.lastFinishedAt === null ? (
          <p className={mutedTextClass}>{t('neverRan')}</p>
        ) : (
          <>
            <p className="text-sm">
              {t('lastRun', { time: `${formatDate(job.lastFinishedAt.getTime(), 'UTC', locale)} ${formatClock(job.lastFinishedAt.getTime(), 'UTC')}` })}{' '}
              {counts.length === 0 ? t('lastRunNothing') : null} {job.lastResult && !job.lastResult.complete ? t('lastRunIncomplete') : null}
            </p>
            {counts.length > 0 ? (
              <table className="mt-2 text-left text-sm">
                <caption className="sr-only">{t('lastRunCounts')}</caption>
                <thead>
                  <tr>
                    <th scope="col" className="py-1 pr-4 font-medium">{t('table')}</th>
                    <th scope="col" className="py-1 font-medium">{t('rows')}</th>
                  </tr>
                </thead>
                <tbody>
                  {counts.map(([table, n]) => (
                    <tr key={table}>
                      <td className="py-1 pr-4 font-mono">{table}</td>
                      <td className="py-1 tabular-nums">{n}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </>
        )}
      </section>
    </div>
  );
}
