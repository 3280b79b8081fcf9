'use server';

import { getLocale, getTranslations } from 'next-intl/server';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { runAction, type ActionState } from '@/lib/api/action-result';
import { changeManagerSystems, createAccount, deactivateAccount, deleteAccount, reactivateAccount, resetManagerPassword } from '@/lib/admin/accounts';
import { disconnectSystem, setResourceKind, updateSystemMailSettings, updateSystemRequestBudget, updateSystemSettings } from '@/lib/admin/systems';
import { removeRuleGroup, setRuleGroup } from '@/lib/admin/booking-rules';
import { env } from '@/lib/env';
import { forgetRequestBudgets } from '@/lib/systems/request-budgets';
import { ApiError } from '@/lib/errors/api-error';
import { LANGUAGES, isLocale } from '@/lib/i18n/config';
import { msg } from '@/lib/i18n/message';
import { parseWholeNumber } from '@/lib/http/whole-number';
import { RESOURCE_KINDS } from '@/lib/schedule/resource-kind';
import { newAccountSchema, passwordSchema } from '@/lib/auth/schemas';
import { requireAdmin } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { formatList } from '@/lib/i18n/format';
import { connectSystemsByApproval, eraseResidentNow } from '@/lib/wiring';
import { residentLabel } from '@/lib/personal-data/erase';
import { parseResidentRef } from '@/lib/personal-data/download';
import { RETENTION_PERIODS, saveRetentionSetting } from '@/lib/personal-data/retention-settings';
import { deviceIdSchema, requestBudgetSchema, systemUpdateSchema } from '@/lib/systems/schemas';
import { systemSelectionSchema } from '@/lib/systems/selection';

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

// The success lines are said in the language of the admin who acted (this request's).
const done = () => getTranslations('admin.done');
const invalid = () => getTranslations('admin.invalid');

const userIdOf = async (form: FormData) => z.uuid((await invalid())('userId')).parse(text(form, 'userId'));

export async function connectSystemsAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const connected = await connectSystemsByApproval(text(form, 'approvalId'), admin);
    revalidatePath('/admin', 'layout');
    const [t, locale] = await Promise.all([done(), getLocale()]);
    return t('connected', { count: connected.length, names: formatList(connected.map((s) => s.name), locale) });
  });
}

export async function updateSystemAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const deviceId = deviceIdSchema.parse(text(form, 'deviceId'));
    const update = systemUpdateSchema.parse({
      name: text(form, 'name'),
      // A form without the field (an older page) changes nothing of it; an empty one clears it.
      street: form.has('street') ? text(form, 'street') : undefined,
      city: form.has('city') ? text(form, 'city') : undefined,
      area: form.has('area') ? text(form, 'area') : undefined,
      timeZone: text(form, 'timeZone'),
      bookingHorizonDays: text(form, 'bookingHorizonDays') || undefined,
      scheduleBasis: text(form, 'scheduleBasis') || undefined,
      bookingQuota: text(form, 'bookingQuota') || undefined,
    });
    const system = await updateSystemSettings((await getDb()).db, admin, deviceId, update);
    revalidatePath('/', 'layout');
    return (await done())('saved', {
      name: system.name,
      timeZone: system.timeZone,
      days: system.bookingHorizonDays,
      quota: system.bookingQuota,
      basis: system.scheduleBasis,
    });
  });
}

const resourceKindSchema = (message: string) => z.union([z.literal('').transform(() => null), z.enum(RESOURCE_KINDS, { error: message })]);

export async function updateResourceKindAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const deviceId = deviceIdSchema.parse(text(form, 'deviceId'));
    const v = await invalid();
    const resourceId = z.uuid(v('resourceId')).parse(text(form, 'resourceId'));
    const kind = resourceKindSchema(v('kind')).parse(text(form, 'kind'));
    const set = await setResourceKind((await getDb()).db, admin, deviceId, resourceId, kind);
    revalidatePath('/', 'layout');
    const t = await done();
    return t('resourceKind', { room: set.resourceName || t('theRoom'), kind: set.kind, guessed: set.guessed ? 'yes' : 'no' });
  });
}

export async function disconnectSystemAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const deviceId = deviceIdSchema.parse(text(form, 'deviceId'));
    const { system, unassigned } = await disconnectSystem((await getDb()).db, admin, deviceId);
    revalidatePath('/', 'layout');
    return (await done())('disconnected', { name: system.name, managers: unassigned });
  });
}

export async function createAccountAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const input = newAccountSchema.parse({ name: text(form, 'name'), email: text(form, 'email'), password: text(form, 'password'), role: text(form, 'role') || 'manager' });
    const user = await createAccount((await getDb()).db, admin, input);
    revalidatePath('/admin/managers');
    return (await done())('created', { role: user.role, name: user.name, email: user.email });
  });
}

export async function resetPasswordAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const userId = await userIdOf(form);
    const password = passwordSchema.parse(text(form, 'password'));
    const manager = await resetManagerPassword((await getDb()).db, admin, userId, password);
    return (await done())('passwordReset', { name: manager.name });
  });
}

/** Gives a manager every system the form's filter selects, or takes them back (issue 49): one step, one audit entry. */
export async function changeManagerSystemsAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const userId = await userIdOf(form);
    const change = text(form, 'change') === 'unassign' ? 'unassign' : 'assign';
    const selection = systemSelectionSchema.parse({
      match: text(form, 'match'),
      area: text(form, 'area'),
      connectionId: text(form, 'connectionId'),
      all: text(form, 'all') === 'yes' ? true : undefined,
    });
    const result = await changeManagerSystems((await getDb()).db, admin, userId, selection, change);
    revalidatePath('/admin/managers', 'layout');
    return (await done())('bulkChanged', { change, name: result.manager.name, count: result.changed, matching: result.matching });
  });
}

export async function deactivateAccountAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const user = await deactivateAccount((await getDb()).db, admin, await userIdOf(form));
    revalidatePath('/admin/managers');
    return (await done())('deactivated', { name: user.name });
  });
}

export async function reactivateAccountAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const user = await reactivateAccount((await getDb()).db, admin, await userIdOf(form));
    revalidatePath('/admin/managers');
    return (await done())('reactivated', { name: user.name });
  });
}

export async function deleteAccountAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const user = await deleteAccount((await getDb()).db, admin, await userIdOf(form));
    revalidatePath('/admin/managers');
    return (await done())('deleted', { name: user.name });
  });
}

export async function updateRequestBudgetAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const deviceId = deviceIdSchema.parse(text(form, 'deviceId'));
    const perHour = requestBudgetSchema.parse(text(form, 'requestBudgetPerHour').trim());
    const defaultPerHour = env.MIRROR_REQUEST_BUDGET_PER_HOUR;
    const saved = await updateSystemRequestBudget((await getDb()).db, admin, deviceId, perHour, {
      defaultPerHour,
      allowedPerHour: env.MIRROR_REQUEST_BUDGET_MAX_PER_HOUR ?? defaultPerHour,
    });
    forgetRequestBudgets();
    revalidatePath('/', 'layout');
    const t = await getTranslations('requestBudget');
    return t('saved', { name: saved.name, perHour: saved.perHour, own: perHour === null ? 'no' : 'yes' });
  });
}

export async function updateMailSettingsAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const deviceId = deviceIdSchema.parse(text(form, 'deviceId'));
    const enabled = text(form, 'residentMail');
    if (enabled !== 'on' && enabled !== 'off') throw new ApiError('bad_request', msg('errors.mailSettingInvalid'));
    const mailLocale = text(form, 'mailLocale');
    if (!isLocale(mailLocale)) throw new ApiError('bad_request', msg('errors.mailLocaleInvalid'));
    const saved = await updateSystemMailSettings((await getDb()).db, admin, deviceId, { residentMail: enabled === 'on', mailLocale });
    revalidatePath('/', 'layout');
    const t = await getTranslations('mailSettings');
    const language = LANGUAGES.find((l) => l.code === saved.mailLocale)?.name ?? saved.mailLocale;
    return t('saved', { enabled: saved.residentMail ? 'yes' : 'no', name: saved.name, language });
  });
}

/**
 * An empty field is "no limit"; anything else must be a whole number in digits (NaN otherwise, which
 * the model refuses with its sentence; `Number()` read `0x10` as 16, issue 47). The model checks its range.
 */
const limitField = (form: FormData, name: string) => {
  const value = text(form, name).trim();
  return value === '' ? null : (parseWholeNumber(value) ?? Number.NaN);
};
const groupIndex = (form: FormData) => {
  const value = text(form, 'index');
  if (value === '') return null;
  const index = parseWholeNumber(value);
  if (index === undefined || index > 49) throw new ApiError('bad_request', msg('errors.ruleGroupGone'));
  return index;
};

export async function saveRuleGroupAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const deviceId = deviceIdSchema.parse(text(form, 'deviceId'));
    const perWindowCount = limitField(form, 'perWindowCount');
    const perWindowDays = limitField(form, 'perWindowDays');
    const group = {
      resourceIds: form.getAll('resourceIds').filter((v): v is string => typeof v === 'string'),
      maxFuture: limitField(form, 'maxFuture'),
      // Both or neither: a count without its period (or the reverse) is refused as invalid.
      perWindow: perWindowCount === null && perWindowDays === null ? null : { count: perWindowCount, days: perWindowDays },
      daysAhead: limitField(form, 'daysAhead'),
      maxConsecutive: limitField(form, 'maxConsecutive'),
      activationMinutes: limitField(form, 'activationMinutes'),
    };
    const { system } = await setRuleGroup((await getDb()).db, admin, deviceId, groupIndex(form), group);
    revalidatePath('/', 'layout');
    return (await done())('ruleGroupSaved', { name: system });
  });
}

export async function removeRuleGroupAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const deviceId = deviceIdSchema.parse(text(form, 'deviceId'));
    const index = groupIndex(form);
    if (index === null) throw new ApiError('bad_request', msg('errors.ruleGroupGone'));
    const { system } = await removeRuleGroup((await getDb()).db, admin, deviceId, index);
    revalidatePath('/', 'layout');
    return (await done())('ruleGroupRemoved', { name: system });
  });
}

export async function saveRetentionAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const saved = await saveRetentionSetting((await getDb()).db, admin, env, text(form, 'retentionClass'), text(form, 'amount'));
    revalidatePath('/admin/retention');
    const t = await getTranslations('retention');
    return t('saved', {
      class: t('className', { key: RETENTION_PERIODS[saved.retentionClass].key }),
      period: t('amount', { unit: saved.unit, amount: saved.amount }),
      source: t('source', { source: saved.source, variable: RETENTION_PERIODS[saved.retentionClass].variable }),
    });
  });
}

export async function eraseResidentAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const who = parseResidentRef(text(form, 'deviceId'), text(form, 'userId'));
    // The name or e-mail typed in the confirmation: checked again against the resident's records.
    const result = await eraseResidentNow({ id: admin.id, name: admin.name }, who, text(form, 'confirmation'));
    revalidatePath('/admin/personal-data');
    const t = await getTranslations('personalData.erase');
    const lines = [t('done', { name: residentLabel(result.plan.resident), count: result.records, feeds: result.counts.feedsRevoked })];
    if (result.mirror === 'failed') lines.push(t('mirrorFailed'));
    if (result.mirror === 'busy') lines.push(t('mirrorBusy'));
    if (result.stillInBookingSystem) lines.push(t('stillListed'));
    return lines.join(' ');
  });
}
