import type { Metadata } from 'next';
import { getLocale, getTranslations } from 'next-intl/server';
import Link from 'next/link';
import { mutedTextClass } from '@/components/ui/styles';
import type { Locale } from '@/lib/i18n/config';
import { COMMAND_LINE_ACTOR, listAudit, type AuditEntry } from '@/lib/admin/audit';
import { describeAuditEntry } from '@/lib/admin/audit-wording';
import { requirePageAdmin } from '@/lib/api/session';
import { RETENTION_ACTOR } from '@/lib/personal-data/retention';
import { getDb } from '@/lib/db';
import { formatClock, formatDate } from '@/lib/i18n/format';
import { parseWholeNumber } from '@/lib/http/whole-number';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('audit');
  return { title: t('title') };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const linkClass = 'rounded-md px-3 py-2 text-sm font-medium text-brand-600 underline hover:bg-slate-100 dark:text-brand-100 dark:hover:bg-slate-800';

type AuditT = Awaited<ReturnType<typeof getTranslations<'audit'>>>;

// Times in UTC, said so: admins may sit in another zone than the systems they manage.
const formatTime = (date: Date, t: AuditT, locale: Locale) => t('time', { date: formatDate(date.getTime(), 'UTC', locale), time: formatClock(date.getTime(), 'UTC') });

/** `npm run admin` and the retention job are recorded under fixed English names; the page says them in the reader's language. */
const actorName = (e: AuditEntry, t: AuditT) =>
  e.actorId !== null ? e.actorName : e.actorName === COMMAND_LINE_ACTOR.name ? t('commandLine') : e.actorName === RETENTION_ACTOR.name ? t('retentionJob') : e.actorName;

export default async function AuditPage({ searchParams }: Props) {
  await requirePageAdmin('/admin/audit');
  const raw = (await searchParams).page;
  // Digits only (Number() read "0x10" as 16); anything else is the first page, as before.
  const requested = parseWholeNumber(typeof raw === 'string' ? raw : '1') ?? 1;
  const { entries, page, pageCount, total } = await listAudit((await getDb()).db, requested);
  const [t, tEntry, locale] = await Promise.all([getTranslations('audit'), getTranslations('audit.entry'), getLocale()]);
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
      <p className={mutedTextClass}>{t('intro', { total })}</p>
      {entries.length === 0 ? (
        <p className={mutedTextClass}>{total === 0 ? t('empty') : t('emptyPage')}</p>
      ) : (
        // Focusable and named: a narrow screen scrolls the table sideways, also by keyboard.
        <div tabIndex={0} role="region" aria-label={t('tableLabel')} className="overflow-x-auto rounded-lg border border-slate-300 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500 dark:border-slate-700">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t('caption', { page, pageCount })}</caption>
            <thead className="border-b border-slate-200 dark:border-slate-700">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">{t('when')}</th>
                <th scope="col" className="px-3 py-2 font-medium">{t('who')}</th>
                <th scope="col" className="px-3 py-2 font-medium">{t('what')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} className="border-b border-slate-100 align-top last:border-0 dark:border-slate-800">
                  <td className="whitespace-nowrap px-3 py-2">
                    <time dateTime={e.createdAt.toISOString()}>{formatTime(e.createdAt, t, locale)}</time>
                  </td>
                  <td className="px-3 py-2">{actorName(e, t)}</td>
                  <td className="px-3 py-2">{describeAuditEntry(e, tEntry, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pageCount > 1 ? (
        <nav aria-label={t('pagesNav')} className="flex flex-wrap items-center gap-3">
          {page > 1 ? <Link href={`/admin/audit?page=${page - 1}`} className={linkClass}>{t('newer')}</Link> : null}
          <p className={mutedTextClass}>{t('pageOf', { page, pageCount })}</p>
          {page < pageCount ? <Link href={`/admin/audit?page=${page + 1}`} className={linkClass}>{t('older')}</Link> : null}
        </nav>
      ) : null}
    </div>
  );
}
