import { getLocale, getTranslations } from 'next-intl/server';
import { ActionForm } from '@/components/admin/action-form';
import { inputClass, labelClass, mutedTextClass } from '@/components/ui/styles';
import { describeGroup, describeRuleSet, type RuleGroup, type RuleSet } from '@/lib/booking-rules';
import { removeRuleGroupAction, saveRuleGroupAction } from '../actions';

interface Room {
  id: string;
  name: string;
}

const LIMITS = [
  { name: 'maxFuture', min: 1, max: 50 },
  { name: 'perWindowCount', min: 1, max: 100 },
  { name: 'perWindowDays', min: 1, max: 90 },
  { name: 'daysAhead', min: 0, max: 365 },
  { name: 'maxConsecutive', min: 1, max: 24 },
  { name: 'activationMinutes', min: 1, max: 1440 },
] as const;

const valueOf = (group: RuleGroup | undefined, name: (typeof LIMITS)[number]['name']): number | undefined => {
  if (!group) return undefined;
  if (name === 'perWindowCount') return group.perWindow?.count;
  if (name === 'perWindowDays') return group.perWindow?.days;
  return group[name] ?? undefined;
};

/**
 * A system's booking rules on the admin's Systems page (issue 35): each rule group as residents
 * read it, a form per group (rooms and limits; an empty limit is none), a form to add one.
 */
export async function BookingRulesEditor({ deviceId, systemName, rules, rooms, quota }: { deviceId: string; systemName: string; rules: RuleSet | null; rooms: Room[]; quota: number }) {
  const [t, tr, locale] = await Promise.all([getTranslations('admin.rules'), getTranslations('ruleSet'), getLocale()]);
  const groups = rules?.groups ?? [];
  const name = (id: string) => rooms.find((r) => r.id === id)?.name;
  const sentences = describeRuleSet(rules, rooms, { bookingQuota: quota }, tr, locale);
  const groupForm = (group: RuleGroup | undefined, index: number | null) => {
    const key = `${deviceId}-${index ?? 'new'}`;
    const number = index === null ? groups.length + 1 : index + 1;
    const taken = new Set(groups.filter((_, i) => i !== index).flatMap((g) => g.resourceIds));
    return (
      <ActionForm
        action={saveRuleGroupAction}
        submitLabel={index === null ? t('add') : t('save', { number })}
        submitAriaLabel={index === null ? `${t('add')} (${systemName})` : `${t('save', { number })} (${systemName})`}
        submitVariant="secondary"
        resetOnSuccess={index === null}
      >
        <input type="hidden" name="deviceId" value={deviceId} />
        <input type="hidden" name="index" value={index ?? ''} />
        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-medium">{index === null ? t('newGroup') : t('groupOf', { number })}</legend>
          {group ? <p className="text-sm">{describeGroup(group, name, tr, locale)}</p> : null}
          <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
            <legend className={labelClass}>{t('rooms')}</legend>
            {rooms.map((r) => (
              <label key={r.id} className="flex items-center gap-1 text-sm">
                <input type="checkbox" name="resourceIds" value={r.id} defaultChecked={group?.resourceIds.includes(r.id) ?? false} disabled={taken.has(r.id)} />
                {r.name}
              </label>
            ))}
          </fieldset>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {LIMITS.map((limit) => (
              <div key={limit.name} className="flex flex-col gap-1">
                <label htmlFor={`${limit.name}-${key}`} className={labelClass}>{t(limit.name)}</label>
                <input id={`${limit.name}-${key}`} name={limit.name} type="number" min={limit.min} max={limit.max} defaultValue={valueOf(group, limit.name)} className={inputClass} />
              </div>
            ))}
          </div>
          <p className={mutedTextClass}>{t('emptyIsNoLimit')}</p>
        </fieldset>
      </ActionForm>
    );
  };
  return (
    <details className="mt-4 border-t border-slate-200 pt-3 dark:border-slate-700">
      <summary className="cursor-pointer text-sm font-medium">{t('heading')}</summary>
      <p className={`mt-2 ${mutedTextClass}`}>{t('intro', { quota })}</p>
      <h4 className="mt-3 text-sm font-medium">{t('asResidentsRead')}</h4>
      {/* Announced when it changes: a removed group's own form (and its status line) goes with it. */}
      <ul aria-label={`${t('asResidentsRead')} (${systemName})`} aria-live="polite" className="mb-3 list-disc pl-5 text-sm">
        {sentences.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ul>
      <div className="flex flex-col gap-4">
        {groups.map((group, index) => (
          <div key={group.resourceIds.join()} className="flex flex-col gap-2 border-t border-slate-200 pt-3 dark:border-slate-700">
            {groupForm(group, index)}
            <ActionForm
              action={removeRuleGroupAction}
              submitLabel={t('remove', { number: index + 1 })}
              submitAriaLabel={`${t('remove', { number: index + 1 })} (${systemName})`}
              submitVariant="secondary"
              confirm={{ title: t('removeTitle', { number: index + 1 }), body: t('removeBody'), confirmLabel: t('remove', { number: index + 1 }) }}
            >
              <input type="hidden" name="deviceId" value={deviceId} />
              <input type="hidden" name="index" value={index} />
            </ActionForm>
          </div>
        ))}
        <div className="border-t border-slate-200 pt-3 dark:border-slate-700">{groupForm(undefined, null)}</div>
      </div>
    </details>
  );
}
