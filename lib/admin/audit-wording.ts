// What an audit entry says on the log page, in a sentence of the reader's language. Pure: details
// are read tolerantly, since entries outlive the code that wrote them. The entry keeps facts (keys,
// names, values), never wording; the sentence is made here from the catalogue's `audit.entry`.

import type { createTranslator, Messages } from 'next-intl';
import type { Locale } from '@/lib/i18n/config';
import { formatList } from '@/lib/i18n/format';

export interface AuditEntryLike {
  action: string;
  targetName: string | null;
  targetId: string | null;
  detail: Record<string, unknown> | null;
}

/** The `audit.entry` translator: getTranslations('audit.entry') on a page, createTranslator in tests. */
export type AuditEntryTranslator = ReturnType<typeof createTranslator<Messages, 'audit.entry'>>;

const SETTINGS = new Set(['name', 'street', 'city', 'area', 'timeZone', 'bookingHorizonDays', 'scheduleBasis', 'bookingQuota', 'requestBudgetPerHour']);
const KINDS = new Set(['laundry', 'drying', 'other']);

// A retention class's word in the catalogue (ICU select keys take no hyphen).
const RETENTION_CLASS_KEYS: Record<string, string> = { 'request-13m': 'request', 'email-body-90d': 'emailBody', 'email-meta-13m': 'emailMeta', 'audit-24m': 'audit' };

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '–');
const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(text) : []);

/**
 * An erased resident (issue 47): the entry's name is the wording in the portal's default language;
 * its fact `erased: {apartment}` says it in the reader's, "Resident in LGH 1001" or "Resident".
 */
function erasedResident(erased: unknown, t: AuditEntryTranslator): string | null {
  if (erased === null || typeof erased !== 'object' || !('apartment' in erased)) return null;
  const { apartment } = erased;
  if (typeof apartment === 'string' && apartment !== '') return t('erasedResident', { apartment });
  return apartment === null ? t('erasedResidentNoApartment') : null;
}

export function describeAuditEntry(entry: AuditEntryLike, t: AuditEntryTranslator, locale: Locale): string {
  const detail = entry.detail ?? {};
  const target = erasedResident(detail.erased, t) ?? entry.targetName ?? entry.targetId ?? t('unknownTarget');
  const role = detail.role === 'admin' || detail.role === 'manager' ? detail.role : 'account';
  const account = typeof detail.email === 'string' ? t('accountWithEmail', { role, name: target, email: detail.email }) : t('account', { role, name: target });
  const kind = (value: unknown): string => (typeof value === 'string' && KINDS.has(value) ? t('kind', { kind: value }) : text(value));
  switch (entry.action) {
    case 'system.connect':
      return t('connect', { target });
    case 'system.disconnect': {
      const sentences = [t('disconnect', { target })];
      if (typeof detail.unassignedManagers === 'number' && detail.unassignedManagers > 0) sentences.push(t('managersLost', { count: detail.unassignedManagers }));
      if (detail.apiKeyRemoved === true) sentences.push(t('apiKeyRemoved'));
      return sentences.join(' ');
    }
    case 'system.update': {
      const changes = Object.entries(detail).map(([key, change]) => {
        const { from, to } = (change ?? {}) as { from?: unknown; to?: unknown };
        const value = (v: unknown) =>
          key === 'scheduleBasis' && typeof v === 'string' ? t('basis', { basis: v }) : key === 'requestBudgetPerHour' && v === null ? t('budgetDefault') : text(v);
        const label = SETTINGS.has(key) ? t('setting', { setting: key }) : key;
        return `${label} ${value(from)} → ${value(to)}`;
      });
      return t('update', { target, changes: changes.join('; ') || t('noDetails') });
    }
    case 'system.resource-kind': {
      const room = typeof detail.resourceName === 'string' && detail.resourceName ? detail.resourceName : text(detail.resourceId);
      const to = detail.to === null || detail.to === undefined ? t('guessedFromName') : kind(detail.to);
      return t('resourceKind', { room, target, from: kind(detail.from), to });
    }
    case 'system.booking-rules': {
      const rooms = (g: unknown) => (g && typeof g === 'object' && Array.isArray((g as { resourceIds?: unknown }).resourceIds) ? (g as { resourceIds: unknown[] }).resourceIds.length : 0);
      const change = detail.from ? (detail.to ? 'changed' : 'removed') : 'added';
      return t('bookingRules', { change, target, rooms: rooms(detail.to ?? detail.from) });
    }
    case 'system.import': {
      // A count and the columns only: the entry of a thousand systems names none of them.
      const count = typeof detail.count === 'number' ? detail.count : 0;
      const columns = list(detail.columns).filter((c) => SETTINGS.has(c)).map((c) => t('setting', { setting: c }));
      return t('systemImport', { count, columns: columns.length > 0 ? formatList(columns, locale) : t('noDetails') });
    }
    case 'display.create':
      return t('displayCreate', { target, system: text(detail.system) });
    case 'display.update': {
      const changes = Object.entries(detail).map(([key, change]) => {
        const { from, to } = (change ?? {}) as { from?: unknown; to?: unknown };
        const value = (v: unknown) => (key === 'showApartments' ? t('displayApartments', { shown: v === true ? 'yes' : 'no' }) : key === 'locale' ? t('displayLocale', { locale: text(v) }) : text(v));
        return t('displaySetting', { setting: key, from: value(from), to: value(to) });
      });
      return t('displayUpdate', { target, changes: changes.join('; ') || t('noDetails') });
    }
    case 'display.rotate':
      return t('displayRotate', { target });
    case 'display.revoke':
      return t('displayRevoke', { target });
    case 'account.create':
      return t('create', { account });
    case 'account.deactivate':
      return t('deactivate', { account });
    case 'account.reactivate':
      return t('reactivate', { account });
    case 'account.delete':
      return t('delete', { account });
    case 'account.password-reset':
      return t('passwordReset', { target });
    case 'account.systems': {
      const added = list(detail.added);
      const removed = list(detail.removed);
      const parts = [added.length ? t('added', { list: formatList(added, locale) }) : '', removed.length ? t('removed', { list: formatList(removed, locale) }) : ''].filter(Boolean);
      return t('systems', { target, changes: parts.join('; ') || t('noChange') });
    }
    case 'account.systems-bulk': {
      // One entry for the whole change (issue 49): its count and the filter, never the systems one by one.
      const selection = detail.selection && typeof detail.selection === 'object' ? (detail.selection as Record<string, unknown>) : {};
      const filters = [
        typeof selection.match === 'string' ? t('selectionMatch', { match: selection.match }) : '',
        typeof selection.area === 'string' ? t('selectionArea', { area: selection.area }) : '',
        selection.approval === true ? t('selectionApproval') : '',
      ].filter(Boolean);
      const count = typeof detail.count === 'number' ? detail.count : 0;
      return t('systemsBulk', {
        change: detail.change === 'unassign' ? 'unassign' : 'assign',
        target,
        count,
        selection: filters.length > 0 ? formatList(filters, locale) : t('selectionAll'),
      });
    }
    case 'retention.settings': {
      const retentionClass = text(detail.retentionClass);
      const key = RETENTION_CLASS_KEYS[retentionClass] ?? retentionClass.replace(/[^\w]/g, '');
      const unit = detail.unit === 'days' ? 'days' : 'months';
      const amount = (v: unknown) => (typeof v === 'number' ? t('retentionAmount', { unit, amount: v }) : text(v));
      return t('retentionSettings', { class: t('retentionClass', { key }), from: amount(detail.from), to: amount(detail.to) });
    }
    case 'retention.run': {
      // Counts per table only: the entry names no row.
      const counts = detail.counts && typeof detail.counts === 'object' ? Object.entries(detail.counts as Record<string, unknown>).filter((e): e is [string, number] => typeof e[1] === 'number') : [];
      const count = counts.reduce((sum, [, n]) => sum + n, 0);
      return t('retentionRun', { count, tables: counts.map(([table, n]) => `${table} ${n}`).join(', ') || t('noDetails') });
    }
    case 'personal-data.extract':
      return t('personalDataExtract', { target, system: text(detail.system), format: detail.format === 'json' ? 'json' : 'html' });
    case 'personal-data.erase': {
      // Counts only: the entry keeps that it happened, not the data. `records` is the success line's
      // figure (lib/personal-data/erase.ts erasedRecords); entries written before it had only counts.
      const counts = detail.counts && typeof detail.counts === 'object' ? (detail.counts as Record<string, unknown>) : {};
      const legacy = ['requests', 'events', 'deliveries', 'emails', 'closures', 'noShows', 'audit'].reduce((sum, key) => sum + (typeof counts[key] === 'number' ? counts[key] : 0), 0);
      return t('personalDataErase', { target, system: text(detail.system), count: typeof detail.records === 'number' ? detail.records : legacy });
    }
    default:
      return t('unknown', { action: entry.action, target });
  }
}
