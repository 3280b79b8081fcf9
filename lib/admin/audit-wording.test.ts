import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import type { Locale } from '@/lib/i18n/config';
import { catalogues } from '@/tests/intl';
import { describeAuditEntry } from './audit-wording';

const describeIn = (locale: Locale) => {
  const t = createTranslator({ locale, messages: catalogues[locale], namespace: 'audit.entry' });
  return (e: Parameters<typeof describeAuditEntry>[0]) => describeAuditEntry(e, t, locale);
};
const entry = (action: string, detail: Record<string, unknown> | null = null, targetName: string | null = 'Ekhagen') => ({ action, targetName, targetId: 'id-1', detail });

describe('describeAuditEntry in English', () => {
  const describeAudit = describeIn('en');

  it('says each action in a sentence', () => {
    expect(describeAudit(entry('system.connect'))).toBe('Connected the system Ekhagen.');
    expect(describeAudit(entry('system.disconnect', { unassignedManagers: 2, apiKeyRemoved: true }))).toBe(
      'Disconnected the system Ekhagen. 2 managers lost access. Its API key was removed.',
    );
    expect(describeAudit(entry('system.disconnect', { unassignedManagers: 1 }))).toBe('Disconnected the system Ekhagen. 1 manager lost access.');
    expect(describeAudit(entry('system.update', { timeZone: { from: 'Europe/Stockholm', to: 'Europe/Helsinki' }, bookingHorizonDays: { from: 28, to: 14 } }))).toBe(
      'Changed the system Ekhagen: time zone Europe/Stockholm → Europe/Helsinki; bookable days ahead 28 → 14.',
    );
    expect(describeAudit(entry('system.update', { bookingQuota: { from: 2, to: 3 } }))).toBe('Changed the system Ekhagen: bookings per apartment and room 2 → 3.');
    expect(describeAudit(entry('system.update', { street: { from: null, to: 'Storgatan 1' }, area: { from: 'Norr', to: null } }))).toBe('Changed the system Ekhagen: street – → Storgatan 1; area Norr → –.');
    expect(describeAudit(entry('system.import', { count: 312, format: 'csv', columns: ['name', 'city'] }, null))).toBe('Imported names and places from a file: 312 systems changed (name and city).');
    expect(describeAudit(entry('system.update', { scheduleBasis: { from: 'utc', to: 'local' } }))).toBe('Changed the system Ekhagen: schedule times UTC → local time.');
    expect(describeAudit(entry('system.update', { requestBudgetPerHour: { from: null, to: 4800 } }))).toBe('Changed the system Ekhagen: requests to the service per hour the default → 4800.');
    expect(describeAudit(entry('system.resource-kind', { resourceId: 'r1', resourceName: 'Tvättstuga 1', from: 'laundry', to: 'drying' }))).toBe('Set the kind of Tvättstuga 1 in Ekhagen: laundry → drying.');
    expect(describeAudit(entry('system.resource-kind', { resourceId: 'r1', resourceName: '', from: 'drying', to: null }))).toBe('Set the kind of r1 in Ekhagen: drying → guessed from its name.');
    expect(describeAudit(entry('system.booking-rules', { from: null, to: { resourceIds: ['a', 'b', 'c'] } }))).toBe('Added a booking rule group of 3 rooms to Ekhagen.');
    expect(describeAudit(entry('system.booking-rules', { from: { resourceIds: ['a'] }, to: { resourceIds: ['a'] } }))).toBe('Changed a booking rule group of 1 room in Ekhagen.');
    expect(describeAudit(entry('system.booking-rules', { from: { resourceIds: ['a', 'b'] }, to: null }))).toBe('Removed a booking rule group of 2 rooms from Ekhagen.');
    expect(describeAudit(entry('display.update', { name: { from: 'Entré A', to: 'Entré B' }, locale: { from: 'sv', to: 'en' }, showApartments: { from: false, to: true } }, 'Entré B'))).toBe(
      'Changed the display Entré B: name Entré A → Entré B; language Swedish → English; apartment numbers hidden → shown.',
    );
    expect(describeAudit(entry('account.create', { email: 'mia@example.com', role: 'admin' }, 'Mia'))).toBe('Created the admin Mia (mia@example.com).');
    expect(describeAudit(entry('account.deactivate', { email: 'mia@example.com', role: 'manager' }, 'Mia'))).toBe('Deactivated the manager Mia (mia@example.com).');
    expect(describeAudit(entry('account.reactivate', { email: 'mia@example.com', role: 'manager' }, 'Mia'))).toBe('Reactivated the manager Mia (mia@example.com).');
    expect(describeAudit(entry('account.delete', null, 'Mia'))).toBe('Deleted the account Mia.');
    expect(describeAudit(entry('account.password-reset', null, 'Mia'))).toBe('Set a new password for Mia.');
    expect(describeAudit(entry('account.systems', { added: ['Ekhagen'], removed: ['Flogsta', 'Gottsunda', 'Sala'] }, 'Mia'))).toBe(
      'Changed the systems of Mia: added Ekhagen; removed Flogsta, Gottsunda and Sala.',
    );
    expect(describeAudit(entry('personal-data.extract', { system: 'Ekhagen', format: 'json', locale: 'en' }, 'Anna Andersson'))).toBe('Downloaded the personal data of Anna Andersson in Ekhagen (JSON).');
    expect(describeAudit(entry('personal-data.extract', { system: 'Ekhagen', format: 'html', locale: 'sv' }, 'Anna Andersson'))).toBe('Downloaded the personal data of Anna Andersson in Ekhagen (document).');
    // The success line's figure: a stopped e-mail is among the e-mails and feeds are said apart, so neither adds to it.
    const counts = { requests: 2, events: 1, deliveries: 1, emailsStopped: 1, emails: 2, closures: 1, noShows: 1, audit: 2, feedsRevoked: 1 };
    expect(describeAudit(entry('personal-data.erase', { system: 'Ekhagen', records: 10, feedsRevoked: 1, counts }, 'Resident in LGH 1001'))).toBe(
      'Erased the personal data of Resident in LGH 1001 in Ekhagen (10 records changed).',
    );
    expect(describeAudit(entry('personal-data.erase', { system: 'Ekhagen', counts }, 'Resident in LGH 1001'))).toBe('Erased the personal data of Resident in LGH 1001 in Ekhagen (10 records changed).');
    // Issue 47: the stored name is the default language's wording; the fact beside it is said in the reader's.
    const erased = entry('personal-data.erase', { system: 'Ekhagen', records: 10, counts, erased: { apartment: '1001' } }, 'Boende i LGH 1001');
    expect(describeAudit(erased)).toBe('Erased the personal data of Resident in LGH 1001 in Ekhagen (10 records changed).');
    expect(describeIn('sv')(erased)).toMatch(/Boende i LGH 1001/);
    expect(describeAudit(entry('personal-data.extract', { system: 'Ekhagen', format: 'html', erased: { apartment: null } }, 'Boende'))).toBe('Downloaded the personal data of Resident in Ekhagen (document).');
  });

  it('says what retention changed: a period from → to, and a run’s counts (no names)', () => {
    expect(describeAudit(entry('retention.settings', { retentionClass: 'email-body-90d', unit: 'days', from: 90, to: 30 }, 'email-body-90d'))).toBe('Changed the retention period of e-mails as sent: 90 days → 30 days.');
    expect(describeAudit(entry('retention.settings', { retentionClass: 'audit-24m', unit: 'months', from: 24, to: 1 }, 'audit-24m'))).toBe('Changed the retention period of the audit log: 24 months → 1 month.');
    expect(describeAudit(entry('retention.run', { counts: { reservation_requests: 2, mail_outbox: 1 }, complete: true }, null))).toBe(
      'Anonymised personal data past its retention period: 3 rows (reservation_requests 2, mail_outbox 1).',
    );
  });

  it('reads odd or missing details without failing', () => {
    expect(describeAudit(entry('system.update', { name: null }))).toBe('Changed the system Ekhagen: name – → –.');
    expect(describeAudit(entry('system.update', {}))).toBe('Changed the system Ekhagen: no details.');
    expect(describeAudit(entry('system.resource-kind', { resourceId: 'r1', from: 'sauna', to: 'laundry' }))).toBe('Set the kind of r1 in Ekhagen: sauna → laundry.');
    expect(describeAudit(entry('account.systems', { added: 'x' }, null))).toBe('Changed the systems of id-1: no change.');
    expect(describeAudit({ action: 'account.delete', targetName: null, targetId: null, detail: null })).toBe('Deleted the account an unknown target.');
    expect(describeAudit(entry('something.new'))).toBe('something.new on Ekhagen.');
  });
});

describe('describeAuditEntry in Swedish', () => {
  const describeAudit = describeIn('sv');

  it('says each action in a Swedish sentence', () => {
    expect(describeAudit(entry('system.connect'))).toBe('Anslöt systemet Ekhagen.');
    expect(describeAudit(entry('personal-data.extract', { system: 'Ekhagen', format: 'html' }, 'Anna Andersson'))).toBe('Laddade ned personuppgifterna om Anna Andersson i Ekhagen (dokument).');
    expect(describeAudit(entry('display.update', { name: { from: 'Entré A', to: 'Entré B' } }, 'Entré B'))).toBe('Ändrade skärmen Entré B: namn Entré A → Entré B.');
    expect(describeAudit(entry('system.disconnect', { unassignedManagers: 2, apiKeyRemoved: true }))).toBe(
      'Kopplade bort systemet Ekhagen. 2 förvaltare förlorade åtkomsten. Systemets API-nyckel togs bort.',
    );
    expect(describeAudit(entry('system.update', { timeZone: { from: 'Europe/Stockholm', to: 'Europe/Helsinki' }, bookingQuota: { from: 2, to: 3 } }))).toBe(
      'Ändrade systemet Ekhagen: tidszon Europe/Stockholm → Europe/Helsinki; bokningar per lägenhet och lokal 2 → 3.',
    );
    expect(describeAudit(entry('system.update', { scheduleBasis: { from: 'utc', to: 'local' } }))).toBe('Ändrade systemet Ekhagen: schematider UTC → lokal tid.');
    expect(describeAudit(entry('system.update', { city: { from: null, to: 'Uppsala' } }))).toBe('Ändrade systemet Ekhagen: ort – → Uppsala.');
    expect(describeAudit(entry('system.import', { count: 1, format: 'xlsx', columns: ['area'] }, null))).toBe('Importerade namn och platser från en fil: 1 system ändrade (område).');
    expect(describeAudit(entry('system.resource-kind', { resourceId: 'r1', resourceName: 'Tvättstuga 1', from: 'laundry', to: 'drying' }))).toBe('Ändrade typen för Tvättstuga 1 i Ekhagen: tvättstuga → torkrum.');
    expect(describeAudit(entry('system.resource-kind', { resourceId: 'r1', resourceName: 'Rum 2', from: 'drying', to: null }))).toBe('Ändrade typen för Rum 2 i Ekhagen: torkrum → gissat utifrån namnet.');
    expect(describeAudit(entry('account.create', { email: 'mia@example.com', role: 'admin' }, 'Mia'))).toBe('Skapade administratören Mia (mia@example.com).');
    expect(describeAudit(entry('account.deactivate', { email: 'mia@example.com', role: 'manager' }, 'Mia'))).toBe('Inaktiverade förvaltaren Mia (mia@example.com).');
    expect(describeAudit(entry('account.delete', null, 'Mia'))).toBe('Tog bort kontot Mia.');
    expect(describeAudit(entry('account.password-reset', null, 'Mia'))).toBe('Satte ett nytt lösenord för Mia.');
    expect(describeAudit(entry('account.systems', { added: ['Ekhagen'], removed: ['Flogsta', 'Gottsunda', 'Sala'] }, 'Mia'))).toBe(
      'Ändrade systemen för Mia: lade till Ekhagen; tog bort Flogsta, Gottsunda och Sala.',
    );
    expect(describeAudit(entry('account.systems', {}, 'Mia'))).toBe('Ändrade systemen för Mia: ingen ändring.');
    expect(describeAudit(entry('something.new'))).toBe('something.new på Ekhagen.');
  });
});
