import { describe, expect, it } from 'vitest';
import { describeAuditEntry } from './audit-wording';

describe('describeAuditEntry', () => {
  const entry = (action: string, detail: Record<string, unknown> | null = null, targetName: string | null = 'Ekhagen') => ({ action, targetName, targetId: 'id-1', detail });

  it('says each action in a sentence', () => {
    expect(describeAuditEntry(entry('system.connect'))).toBe('Connected the system Ekhagen.');
    expect(describeAuditEntry(entry('system.disconnect', { unassignedManagers: 2, apiKeyRemoved: true }))).toBe(
      'Disconnected the system Ekhagen. 2 managers lost access. Its API key was removed.',
    );
    expect(describeAuditEntry(entry('system.update', { timeZone: { from: 'Europe/Stockholm', to: 'Europe/Helsinki' }, bookingHorizonDays: { from: 28, to: 14 } }))).toBe(
      'Changed the system Ekhagen: time zone Europe/Stockholm → Europe/Helsinki; bookable days ahead 28 → 14.',
    );
    expect(describeAuditEntry(entry('system.update', { bookingQuota: { from: 2, to: 3 } }))).toBe('Changed the system Ekhagen: bookings per apartment and room 2 → 3.');
    expect(describeAuditEntry(entry('system.resource-kind', { resourceId: 'r1', resourceName: 'Tvättstuga 1', from: 'laundry', to: 'drying' }))).toBe('Set the kind of Tvättstuga 1 in Ekhagen: laundry → drying.');
    expect(describeAuditEntry(entry('system.resource-kind', { resourceId: 'r1', resourceName: '', from: 'drying', to: null }))).toBe('Set the kind of r1 in Ekhagen: drying → guessed from its name.');
    expect(describeAuditEntry(entry('account.create', { email: 'mia@example.com', role: 'admin' }, 'Mia'))).toBe('Created the admin Mia (mia@example.com).');
    expect(describeAuditEntry(entry('account.deactivate', { email: 'mia@example.com', role: 'manager' }, 'Mia'))).toBe('Deactivated the manager Mia (mia@example.com).');
    expect(describeAuditEntry(entry('account.delete', null, 'Mia'))).toBe('Deleted the account Mia.');
    expect(describeAuditEntry(entry('account.password-reset', null, 'Mia'))).toBe('Set a new password for Mia.');
    expect(describeAuditEntry(entry('account.systems', { added: ['Ekhagen'], removed: ['Flogsta', 'Gottsunda'] }, 'Mia'))).toBe(
      'Changed the systems of Mia: added Ekhagen; removed Flogsta, Gottsunda.',
    );
  });

  it('reads odd or missing details without failing', () => {
    expect(describeAuditEntry(entry('system.update', { name: null }))).toBe('Changed the system Ekhagen: name – → –.');
    expect(describeAuditEntry(entry('account.systems', { added: 'x' }, null))).toBe('Changed the systems of id-1: no change.');
    expect(describeAuditEntry(entry('something.new'))).toBe('something.new on Ekhagen.');
  });
});
