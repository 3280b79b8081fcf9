import type { Metadata } from 'next';
import Link from 'next/link';
import { getLocale, getTranslations } from 'next-intl/server';
import { MailStatusBadge } from '@/components/emails/mail-status-badge';
import { cardClass, inputClass, labelClass, mutedTextClass } from '@/components/ui/styles';
import { Button } from '@/components/ui/button';
import { isLocale } from '@/lib/i18n/config';
import { listAccessibleSystemsIn } from '@/lib/auth/access';
import { requirePageUser } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { MAIL_STATUSES } from '@/lib/db/schema/mail';
import { formatClock, formatDayLabel, formatDayTime } from '@/lib/i18n/format';
import { mailDelivery } from '@/lib/mail/delivery';
import { listMailFor, parseMailFilters } from '@/lib/mail/view';
import { wallClock } from '@/lib/schedule/zoned';
import { readMailSettings } from '@/lib/systems/store';
import { toSearchParams } from '@/lib/views/request-filters';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('emails');
  return { title: t('title') };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function EmailsPage({ searchParams }: Props) {
  const params = toSearchParams(await searchParams);
  const user = await requirePageUser(`/emails${params.size > 0 ? `?${params.toString()}` : ''}`);
  const [t, rawLocale] = await Promise.all([getTranslations('emails'), getLocale()]);
  const locale = isLocale(rawLocale) ? rawLocale : 'sv';
  const { db } = await getDb();
  const systems = await listAccessibleSystemsIn(db, user);
  const filters = parseMailFilters(params);
  const visible = user.role === 'admin' ? 'all' : systems.map((s) => s.deviceId);
  const [{ rows, more }, mailSettings] = await Promise.all([listMailFor(db, visible, filters), readMailSettings(db)]);
  const names = new Map(systems.map((s) => [s.deviceId, s.name]));
  const delivery = mailDelivery();
  const off = systems.filter((s) => mailSettings.get(s.deviceId)?.residentMail === false).map((s) => s.name);
  const pageHref = (page: number) => {
    const next = new URLSearchParams();
    if (filters.status) next.set('status', filters.status);
    if (filters.deviceId) next.set('deviceId', filters.deviceId);
    if (page > 1) next.set('page', String(page));
    return `/emails${next.size > 0 ? `?${next.toString()}` : ''}`;
  };
  return (
    <div className="flex flex-col gap-4">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
        <p className={mutedTextClass}>{t('description')}</p>
      </header>
      <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
        {delivery.mode === 'capture' ? t('captureBanner') : t('smtpBanner', { server: delivery.server })}
      </p>
      {off.length > 0 ? <p className={mutedTextClass}>{t('disabledNotice', { systems: off.join(', ') })}</p> : null}
      <form method="get" action="/emails" className={`${cardClass} flex flex-wrap items-end gap-3`}>
        <div className="flex flex-col gap-1">
          <label htmlFor="mail-status" className={labelClass}>{t('filterStatus')}</label>
          <select id="mail-status" name="status" defaultValue={filters.status ?? ''} className={inputClass}>
            <option value="">{t('allStatuses')}</option>
            {MAIL_STATUSES.map((s) => (
              <option key={s} value={s}>{t(`status.${s}`)}</option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="mail-system" className={labelClass}>{t('filterSystem')}</label>
          <select id="mail-system" name="deviceId" defaultValue={filters.deviceId ?? ''} className={inputClass}>
            <option value="">{t('allSystems')}</option>
            {systems.map((s) => (
              <option key={s.deviceId} value={s.deviceId}>{s.name}</option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="secondary">{t('filter')}</Button>
      </form>
      {rows.length === 0 ? (
        <p className={mutedTextClass}>{t('empty')}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-200 dark:border-slate-700">
                <th scope="col" className="py-2 pr-3">{t('colRecipient')}</th>
                <th scope="col" className="py-2 pr-3">{t('colKind')}</th>
                <th scope="col" className="py-2 pr-3">{t('colSlot')}</th>
                <th scope="col" className="py-2 pr-3">{t('colStatus')}</th>
                <th scope="col" className="py-2 pr-3">{t('colAttempts')}</th>
                <th scope="col" className="py-2 pr-3">{t('colError')}</th>
                <th scope="col" className="py-2 pr-3">{t('colCreated')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const start = Date.parse(row.facts.startTime);
                const zone = row.facts.timeZone;
                return (
                  <tr key={row.id} className="border-b border-slate-100 align-top dark:border-slate-800">
                    <td className="py-2 pr-3">
                      <Link href={`/emails/${row.id}`} className="underline">
                        {row.recipient ?? t('noAddress')}
                      </Link>
                      {row.recipientName ? <div className="text-xs text-slate-600 dark:text-slate-400">{row.recipientName}</div> : null}
                    </td>
                    <td className="py-2 pr-3">{t(`kind.${row.kind}`)}</td>
                    <td className="py-2 pr-3">
                      {t('slot', {
                        room: row.facts.resourceName ?? '',
                        day: formatDayLabel(wallClock(start, zone), locale),
                        start: formatClock(start, zone),
                        end: formatClock(Date.parse(row.facts.endTime), zone),
                      })}
                      <div className="text-xs text-slate-600 dark:text-slate-400">{names.get(row.deviceId) ?? row.facts.systemName}</div>
                    </td>
                    <td className="py-2 pr-3">
                      <MailStatusBadge status={row.status} label={t(`status.${row.status}`)} />
                      {row.skipReason ? <div className="text-xs text-slate-600 dark:text-slate-400">{t(`skip.${row.skipReason}`)}</div> : null}
                    </td>
                    <td className="py-2 pr-3">{row.attempts}</td>
                    <td className="max-w-xs break-words py-2 pr-3 text-xs">{row.lastError ?? ''}</td>
                    <td className="py-2 pr-3 text-xs">{formatDayTime(row.createdAt.getTime(), zone, locale)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <nav className="flex gap-4 text-sm" aria-label={t('title')}>
        {filters.page > 1 ? <Link href={pageHref(1)} className="underline">{t('newest')}</Link> : null}
        {more ? <Link href={pageHref(filters.page + 1)} className="underline">{t('older')}</Link> : null}
      </nav>
    </div>
  );
}
