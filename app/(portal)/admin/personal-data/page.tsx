import type { Metadata } from 'next';
import { getLocale, getTranslations } from 'next-intl/server';
import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { cardClass, errorTextClass, inputClass, labelClass, mutedTextClass, termClass } from '@/components/ui/styles';
import { requirePageAdmin } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { isApiError } from '@/lib/errors/api-error';
import { isLocale, LOCALES, type Locale } from '@/lib/i18n/config';
import { renderMessage } from '@/lib/i18n/server';
import { erasureBlockedBy, erasureConfirmationWords, planErasure, residentLabel, residentWording, type ErasurePlan } from '@/lib/personal-data/erase';
import { gatherExtract } from '@/lib/personal-data/extract';
import { ActionForm } from '@/components/admin/action-form';
import { eraseResidentAction } from '../actions';
import { retentionPlaceholders } from '@/lib/wiring';
import { findResidents, type FoundResident } from '@/lib/personal-data/find';
import { RESIDENT_QUERY_MAX_LENGTH } from '@/lib/residents/search';
import { isUuid } from '@/lib/views/page-access';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('personalData');
  return { title: t('title') };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);
const linkClass = 'font-medium text-brand-600 underline dark:text-brand-100';

/** Searching by GET keeps the page working without JavaScript and its address shareable between admins. */
async function search(q: string, locale: Locale): Promise<{ residents: FoundResident[]; truncated: boolean } | { error: string }> {
  try {
    return await findResidents((await getDb()).db, q);
  } catch (error) {
    if (isApiError(error)) return { error: await renderMessage(locale, error.text) };
    throw error;
  }
}

export default async function PersonalDataPage({ searchParams }: Props) {
  await requirePageAdmin('/admin/personal-data');
  const params = await searchParams;
  const q = one(params.q);
  const deviceId = one(params.deviceId);
  const userId = one(params.userId);
  const [t, rawLocale] = await Promise.all([getTranslations('personalData'), getLocale()]);
  const locale: Locale = isLocale(rawLocale) ? rawLocale : 'sv';
  const found = q === undefined ? null : await search(q, locale);
  const who = deviceId && userId && isUuid(deviceId) && isUuid(userId) ? { deviceId: deviceId.toLowerCase(), userId: userId.toLowerCase() } : null;
  const { db } = await getDb();
  // The page shows counts only: no e-mail's text is rendered for it.
  const selected = who ? await gatherExtract(db, who, new Date(), { texts: false }) : null;
  // The wording in the reader's language, as the portal's pages show an erased resident (issue 47).
  const [plan, placeholders] = selected ? await Promise.all([planErasure(db, selected), retentionPlaceholders(locale)]) : [null, null];
  const selectedAsked = deviceId !== undefined || userId !== undefined;
  const value = (v: string | null) => v || t('noValue');

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
      <p className={mutedTextClass}>{t('intro')}</p>

      <div role="search">
        <form method="get" action="/admin/personal-data" className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <label htmlFor="personal-data-q" className={labelClass}>{t('searchLabel')}</label>
            <input id="personal-data-q" name="q" type="search" defaultValue={q ?? ''} maxLength={RESIDENT_QUERY_MAX_LENGTH} className={inputClass} aria-describedby={found && 'error' in found ? 'personal-data-error' : undefined} />
          </div>
          <Button type="submit">{t('search')}</Button>
        </form>
      </div>

      {found && 'error' in found ? (
        <p id="personal-data-error" role="alert" className={errorTextClass}>{found.error}</p>
      ) : null}

      {found && 'residents' in found ? (
        <section aria-labelledby="personal-data-results" className="flex flex-col gap-2">
          <h2 id="personal-data-results" className="text-lg font-semibold">{t('resultsHeading')}</h2>
          <p className={mutedTextClass} role="status">{t('resultsCount', { count: found.residents.length })}{found.truncated ? ` ${t('truncated')}` : ''}</p>
          {/* A reference id or an apartment number finds everyone living there (issue 48): each is a person of their own. */}
          {sharedApartments(found.residents) > 0 ? <p className="text-sm">{t('sharedApartment', { count: sharedApartments(found.residents) })}</p> : null}
          <ul className="grid gap-3 md:grid-cols-2">
            {found.residents.map((r) => (
              <li key={`${r.deviceId}/${r.userId}`} className={`${cardClass} min-w-0`}>
                <p className="break-words font-medium">{value(r.name)}</p>
                <dl className="mt-1 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 text-sm">
                  <dt className={termClass}>{t('system')}</dt>
                  <dd className="break-words">{r.systemName}</dd>
                  <dt className={termClass}>{t('email')}</dt>
                  <dd className="break-all">{value(r.email)}</dd>
                  <dt className={termClass}>{t('apartment')}</dt>
                  <dd className="break-words">{value(r.apartment)}</dd>
                  {r.referenceId ? (
                    <>
                      <dt className={termClass}>{t('reference')}</dt>
                      <dd className="break-words">{r.referenceId}</dd>
                    </>
                  ) : null}
                  <dt className={termClass}>{t('known')}</dt>
                  <dd>{t('source', { source: r.source === 'portal-records' ? 'portal' : 'system' })}</dd>
                </dl>
                <Link
                  className={`${linkClass} mt-2 inline-block`}
                  href={`/admin/personal-data?${new URLSearchParams({ q: q ?? '', deviceId: r.deviceId, userId: r.userId }).toString()}#personal-data-selected`}
                >
                  {t('choose', { name: residentLabel(r) })}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {selectedAsked && !selected ? <p role="alert" className={errorTextClass}>{t('notFound')}</p> : null}

      {selected ? (
        <section id="personal-data-selected" aria-labelledby="personal-data-selected-heading" className={`${cardClass} flex min-w-0 flex-col gap-3`}>
          <h2 id="personal-data-selected-heading" className="break-words text-lg font-semibold">
            {t('selectedHeading', { name: residentLabel(selected.resident) })}
          </h2>
          <p className={`${mutedTextClass} break-words`}>{t('selectedIntro', { system: selected.resident.systemName, userId: selected.resident.userId })}</p>
          <ul className="list-disc pl-5 text-sm">
            <li>{t('summary.requests', { count: selected.portal.requests.length })}</li>
            <li>{t('summary.emails', { count: selected.portal.emails.length })}</li>
            <li>{t('summary.feeds', { count: selected.portal.calendarFeeds.length })}</li>
            <li>{t('summary.closures', { count: selected.portal.closures.length })}</li>
            <li>{t('summary.noShows', { count: selected.portal.releasedNoShows.length })}</li>
            <li>{t('summary.audit', { count: selected.portal.audit.length })}</li>
            <li>{t('summary.bookingSystem', { count: selected.bookingSystem.reservations.length, listed: selected.resident.inBookingSystem ? 'yes' : 'no' })}</li>
          </ul>
          {/* The resident's actions: erasure is to sit beside the downloads. */}
          <form method="post" action="/api/admin/personal-data/extract/extract.html" className="flex flex-col gap-3">
            <input type="hidden" name="deviceId" value={selected.resident.deviceId} />
            <input type="hidden" name="userId" value={selected.resident.userId} />
            <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
              <legend className={labelClass}>{t('language')}</legend>
              {LOCALES.map((l) => (
                <label key={l} className="flex items-center gap-2 text-sm">
                  <input type="radio" name="locale" value={l} defaultChecked={l === locale} />
                  {t('languageName', { locale: l })}
                </label>
              ))}
            </fieldset>
            <div className="flex flex-wrap gap-2">
              <Button type="submit">{t('downloadHtml')}</Button>
              <Button type="submit" variant="secondary" formAction="/api/admin/personal-data/extract/extract.json">{t('downloadJson')}</Button>
            </div>
            <p className={mutedTextClass}>{t('downloadNote')}</p>
          </form>
          {plan && placeholders ? <EraseSection plan={plan} wording={residentWording(selected, placeholders)} locale={locale} /> : null}
        </section>
      ) : null}
    </div>
  );
}

/** Apartments (by system and group) that more than one of the residents found live in. */
function sharedApartments(residents: readonly FoundResident[]): number {
  const seen = new Map<string, number>();
  for (const r of residents) {
    if (!r.groupId) continue;
    const key = `${r.deviceId}/${r.groupId}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen.values()].filter((n) => n > 1).length;
}

/**
 * Erasure beside the downloads: what it changes is said in the confirmation, from the same reads as
 * the extract; while something of theirs is in flight, why it must wait instead of the button.
 */
async function EraseSection({ plan, wording, locale }: { plan: ErasurePlan; wording: string; locale: Locale }) {
  const [t, tPage] = await Promise.all([getTranslations('personalData.erase'), getTranslations('personalData')]);
  const value = (v: string | null) => v || tPage('noValue');
  const name = residentLabel(plan.resident);
  const blocked = erasureBlockedBy(plan);
  const feeds =
    plan.feedsToRevoke > 0
      ? t('feedsRevoke', { count: plan.feedsToRevoke })
      : plan.feedsKept > 0
        ? plan.housemates === null
          ? t('feedsKeptUnknown', { count: plan.feedsKept })
          : t('feedsKept', { count: plan.feedsKept, housemates: plan.housemates })
        : t('noFeeds');
  return (
    <div className="flex flex-col gap-2 border-t border-slate-200 pt-3 dark:border-slate-700">
      <h3 className="font-semibold">{t('heading')}</h3>
      <p className={mutedTextClass}>{t('intro')}</p>
      {blocked ? (
        <p role="status" className="text-sm">
          <span className="font-medium">{t('blocked')}</span> {await renderMessage(locale, blocked)}
        </p>
      ) : (
        <ActionForm
          action={eraseResidentAction}
          submitLabel={t('submit')}
          submitAriaLabel={t('submitOf', { name })}
          submitVariant="secondary"
          confirm={{
            title: t('confirmTitle', { name }),
            confirmLabel: t('confirmLabel'),
            // The person's own name or address, typed: the apartment's number or reference would fit a housemate too (issue 48).
            typed: { field: 'confirmation', label: plan.resident.name || plan.resident.email ? t('typeToConfirm') : t('typeIdToConfirm'), accepted: erasureConfirmationWords(plan.resident) },
            body: (
              <div className="flex flex-col gap-2">
                <p>{t('whose')}</p>
                <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3">
                  <dt className={termClass}>{t('name')}</dt>
                  <dd className="break-words">{value(plan.resident.name)}</dd>
                  <dt className={termClass}>{tPage('email')}</dt>
                  <dd className="break-all">{value(plan.resident.email)}</dd>
                  <dt className={termClass}>{tPage('apartment')}</dt>
                  <dd className="break-words">{value(plan.resident.apartment)}</dd>
                  <dt className={termClass}>{tPage('system')}</dt>
                  <dd className="break-words">{plan.resident.systemName}</dd>
                  <dt className={termClass}>{t('userId')}</dt>
                  <dd className="break-all">{plan.resident.userId}</dd>
                </dl>
                <ul className="list-disc pl-5">
                  <li>{t('requests', { count: plan.requests, wording })}</li>
                  <li>{t('emails', { count: plan.emails, queued: plan.queuedEmails })}</li>
                  <li>{t('closures', { count: plan.closures })}</li>
                  <li>{t('noShows', { count: plan.noShows })}</li>
                  <li>{t('audit', { count: plan.auditEntries })}</li>
                  <li>{feeds}</li>
                </ul>
                <p>{t('bookingSystem', { count: plan.bookingSystem.reservations })}</p>
                <p className="font-medium">{t('final')}</p>
              </div>
            ),
          }}
        >
          <input type="hidden" name="deviceId" value={plan.resident.deviceId} />
          <input type="hidden" name="userId" value={plan.resident.userId} />
        </ActionForm>
      )}
    </div>
  );
}
