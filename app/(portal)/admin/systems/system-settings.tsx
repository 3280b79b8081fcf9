import { getTranslations } from 'next-intl/server';
import { ActionForm } from '@/components/admin/action-form';
import { ZoneSelect } from '@/components/admin/zone-select';
import { detectedBasisOf } from '@/lib/admin/systems';
import { StatusBadge } from '@/components/shell/status-badge';
import { cardClass, inputClass, labelClass } from '@/components/ui/styles';
import type { Database } from '@/lib/db';
import { readResources } from '@/lib/mirror/store';
import { guessResourceKind, RESOURCE_KINDS } from '@/lib/schedule/resource-kind';
import { BOOKING_HORIZON_MAX_DAYS, BOOKING_QUOTA_MAX, SYSTEM_PLACE_MAX_LENGTH, type SystemPublic } from '@/lib/systems/schemas';
import { readMailSettings, readRequestBudgets, readResourceKinds } from '@/lib/systems/store';
import { LANGUAGES } from '@/lib/i18n/config';
import { readBookingRulesOf } from '@/lib/systems/booking-rules';
import { env } from '@/lib/env';
import { BookingRulesEditor } from './booking-rules-editor';
import { disconnectSystemAction, updateMailSettingsAction, updateRequestBudgetAction, updateResourceKindAction, updateSystemAction } from '../actions';

// Every IANA zone this runtime knows, plus UTC (which supportedValuesOf leaves out), sorted; the
// server still validates what comes back (lib/systems/schemas.ts).
const zones = [...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC'])].sort();

/** The zones to offer a system: the known ones, and its current one if this runtime lacks it (an alias). */
const zonesFor = (current: string) => (zones.includes(current) ? zones : [current, ...zones]);

/**
 * One system's settings, each form on its own (issue 49: the systems list shows a page of rows, a
 * system's settings only on its own page, /admin/systems/{deviceId}); read for this system only.
 */
export async function SystemSettings({ db, system: s }: { db: Database; system: SystemPublic }) {
  const [t, common, tm, tb] = await Promise.all([getTranslations('admin.systems'), getTranslations('common'), getTranslations('mailSettings'), getTranslations('requestBudget')]);
  const [mailSettings, budgets, bookingRules, detected, resources, kinds] = await Promise.all([
    readMailSettings(db),
    readRequestBudgets(db),
    readBookingRulesOf(db, [s.deviceId]),
    detectedBasisOf(db, s, new Date()),
    readResources(db, s.deviceId),
    readResourceKinds(db, s.deviceId),
  ]);
  const mail = mailSettings.get(s.deviceId);
  const budget = budgets.get(s.deviceId);
  const budgetDefault = env.MIRROR_REQUEST_BUDGET_PER_HOUR;
  const budgetAllowed = env.MIRROR_REQUEST_BUDGET_MAX_PER_HOUR ?? budgetDefault;
  // Which basis the system's bookings fall on: the choice is set to it when it is not the one saved.
  const shifted = detected && detected !== s.scheduleBasis ? detected : null;
  const rooms = resources.map((r) => ({ ...r, kind: kinds.get(r.id) ?? null, guess: guessResourceKind(r.name, r.description) }));
  return (
    <li className={cardClass}>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-medium">{s.name}</h3>
        <StatusBadge status={s.status} />
      </div>
      <p className="mb-3 break-all font-mono text-xs text-slate-500 dark:text-slate-400">{s.deviceId}</p>
      <ActionForm action={updateSystemAction} submitLabel={common('save')} submitAriaLabel={t('saveName', { name: s.name })}>
        <input type="hidden" name="deviceId" value={s.deviceId} />
        <div className="flex flex-col gap-1">
          <label htmlFor={`name-${s.deviceId}`} className={labelClass}>{common('name')}</label>
          <input id={`name-${s.deviceId}`} name="name" defaultValue={s.name} required className={inputClass} aria-label={t('nameOf', { name: s.name })} />
        </div>
        {(['street', 'city', 'area'] as const).map((field) => (
          <div key={field} className="flex flex-col gap-1">
            <label htmlFor={`${field}-${s.deviceId}`} className={labelClass}>{t('place', { field })}</label>
            <input id={`${field}-${s.deviceId}`} name={field} defaultValue={s[field] ?? ''} maxLength={SYSTEM_PLACE_MAX_LENGTH} className={inputClass} aria-label={t('placeOf', { field, name: s.name })} />
          </div>
        ))}
        <div className="flex flex-col gap-1">
          <label htmlFor={`tz-${s.deviceId}`} className={labelClass}>{common('timeZone')}</label>
          <ZoneSelect
            id={`tz-${s.deviceId}`}
            name="timeZone"
            current={s.timeZone}
            zones={zonesFor(s.timeZone)}
            likelyLabel={t('zoneLikely')}
            allLabel={t('zoneAll')}
            ariaLabel={t('timeZoneOf', { name: s.name })}
            describedBy={`tz-hint-${s.deviceId}`}
            className={inputClass}
          />
          <p id={`tz-hint-${s.deviceId}`} className="text-xs text-slate-500 dark:text-slate-400">
            {t('zoneHint')}
          </p>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`horizon-${s.deviceId}`} className={labelClass}>{t('horizon')}</label>
          <input
            id={`horizon-${s.deviceId}`}
            name="bookingHorizonDays"
            type="number"
            min={1}
            max={BOOKING_HORIZON_MAX_DAYS}
            defaultValue={s.bookingHorizonDays}
            required
            className={inputClass}
            aria-label={t('horizonOf', { name: s.name })}
            aria-describedby={`horizon-hint-${s.deviceId}`}
          />
          <p id={`horizon-hint-${s.deviceId}`} className="text-xs text-slate-500 dark:text-slate-400">
            {t('horizonHint')}
          </p>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`quota-${s.deviceId}`} className={labelClass}>{t('quota')}</label>
          <input
            id={`quota-${s.deviceId}`}
            name="bookingQuota"
            type="number"
            min={1}
            max={BOOKING_QUOTA_MAX}
            defaultValue={s.bookingQuota}
            required
            className={inputClass}
            aria-label={t('quotaOf', { name: s.name })}
            aria-describedby={`quota-hint-${s.deviceId}`}
          />
          <p id={`quota-hint-${s.deviceId}`} className="text-xs text-slate-500 dark:text-slate-400">
            {t('quotaHint')}
          </p>
        </div>
        <div className="flex flex-col gap-1">
          {shifted ? (
            <div role="note" aria-labelledby={`shifted-${s.deviceId}`} className="rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50">
              <p id={`shifted-${s.deviceId}`} className="font-medium">{t('shiftedTitle')}</p>
              <p>{t('shiftedBody', { basis: shifted })}</p>
            </div>
          ) : null}
          <label htmlFor={`basis-${s.deviceId}`} className={labelClass}>{t('basis')}</label>
          <select
            id={`basis-${s.deviceId}`}
            name="scheduleBasis"
            defaultValue={shifted ?? s.scheduleBasis}
            className={inputClass}
            aria-label={t('basisOf', { name: s.name })}
            aria-describedby={`basis-hint-${s.deviceId}`}
          >
            <option value="utc">{t('basisUtc')}</option>
            <option value="local">{t('basisLocal')}</option>
          </select>
          <p id={`basis-hint-${s.deviceId}`} className="text-xs text-slate-500 dark:text-slate-400">
            {detected === s.scheduleBasis ? t('basisFits') : t('basisHint')}
          </p>
        </div>
      </ActionForm>
      <ActionForm action={updateMailSettingsAction} submitLabel={tm('save')} submitVariant="secondary" className="mt-4 flex flex-col gap-3 border-t border-slate-200 pt-3 dark:border-slate-700">
        <input type="hidden" name="deviceId" value={s.deviceId} />
        <fieldset className="flex flex-col gap-3">
          <legend className="text-sm font-medium">{tm('legend')}</legend>
          <div className="flex flex-col gap-1">
            <label htmlFor={`mail-${s.deviceId}`} className={labelClass}>{tm('enabled')}</label>
            <select id={`mail-${s.deviceId}`} name="residentMail" defaultValue={mail?.residentMail === false ? 'off' : 'on'} className={inputClass}>
              <option value="on">{tm('on')}</option>
              <option value="off">{tm('off')}</option>
            </select>
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={`mail-locale-${s.deviceId}`} className={labelClass}>{tm('locale')}</label>
            <select id={`mail-locale-${s.deviceId}`} name="mailLocale" defaultValue={mail?.mailLocale ?? 'sv'} className={inputClass}>
              {LANGUAGES.map((l) => (
                <option key={l.code} value={l.code} lang={l.code}>{l.name}</option>
              ))}
            </select>
          </div>
        </fieldset>
      </ActionForm>
      <ActionForm action={updateRequestBudgetAction} submitLabel={tb('save')} submitAriaLabel={tb('saveOf', { name: s.name })} submitVariant="secondary" className="mt-4 flex flex-col gap-3 border-t border-slate-200 pt-3 dark:border-slate-700">
        <input type="hidden" name="deviceId" value={s.deviceId} />
        <div className="flex flex-col gap-1">
          <label htmlFor={`budget-${s.deviceId}`} className={labelClass}>{tb('label')}</label>
          <input
            id={`budget-${s.deviceId}`}
            name="requestBudgetPerHour"
            type="number"
            min={1}
            max={budgetAllowed > 0 ? budgetAllowed : undefined}
            defaultValue={budget ?? ''}
            placeholder={String(budgetDefault)}
            className={inputClass}
            aria-label={tb('labelOf', { name: s.name })}
            aria-describedby={`budget-hint-${s.deviceId}`}
          />
          <p id={`budget-hint-${s.deviceId}`} className="text-xs text-slate-500 dark:text-slate-400">
            {tb('hint', { default: budgetDefault, max: budgetAllowed, any: budgetAllowed === 0 ? 'yes' : 'no' })}
          </p>
        </div>
      </ActionForm>
      <details className="mt-4 border-t border-slate-200 pt-3 dark:border-slate-700">
        <summary className="cursor-pointer text-sm font-medium">{t('roomKinds', { count: rooms.length })}</summary>
        {rooms.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{t('noRooms')}</p>
        ) : (
          <ul className="mt-2 flex flex-col gap-2" aria-label={t('roomKindsOf', { name: s.name })}>
            {rooms.map((r) => (
              <li key={r.id}>
                <ActionForm action={updateResourceKindAction} submitLabel={common('save')} submitAriaLabel={t('saveKindOf', { room: r.name || t('theUnnamedRoom') })} submitVariant="secondary" className="flex flex-wrap items-end gap-2">
                  <input type="hidden" name="deviceId" value={s.deviceId} />
                  <input type="hidden" name="resourceId" value={r.id} />
                  <div className="flex min-w-48 flex-1 flex-col gap-1">
                    <label htmlFor={`kind-${r.id}`} className={labelClass}>{r.name || t('unnamedRoom')}</label>
                    <select id={`kind-${r.id}`} name="kind" defaultValue={r.kind ?? ''} className={inputClass}>
                      <option value="">{t('kindGuessed', { kind: t('kind', { kind: r.guess }) })}</option>
                      {RESOURCE_KINDS.map((k) => (
                        <option key={k} value={k}>{t('kind', { kind: k })}</option>
                      ))}
                    </select>
                  </div>
                </ActionForm>
              </li>
            ))}
          </ul>
        )}
      </details>
      <BookingRulesEditor
        deviceId={s.deviceId}
        systemName={s.name}
        rules={bookingRules.get(s.deviceId) ?? null}
        rooms={rooms.map((r) => ({ id: r.id, name: r.name }))}
        quota={s.bookingQuota}
      />
      <div className="mt-4 border-t border-slate-200 pt-3 dark:border-slate-700">
        <ActionForm
          action={disconnectSystemAction}
          submitLabel={t('disconnect')}
          submitAriaLabel={t('disconnectName', { name: s.name })}
          submitVariant="secondary"
          confirm={{
            title: t('disconnectTitle', { name: s.name }),
            body: t('disconnectBody'),
            confirmLabel: t('disconnectName', { name: s.name }),
          }}
        >
          <input type="hidden" name="deviceId" value={s.deviceId} />
        </ActionForm>
      </div>
    </li>
  );
}
