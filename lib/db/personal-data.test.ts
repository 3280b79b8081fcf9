import { jsonb, type PgTable, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { columnRef, inventoryProblems, personalColumns, RETENTION_CLASSES, schemaTables, tableInventories, uncoveredColumns } from './personal-data';
import { dataInventory, notPersonal, personal } from './personal-marks';
import { RETENTION_COVERS } from '@/lib/personal-data/anonymise';
import { EXTRACT_COVERS, EXTRACT_EXEMPT } from '@/lib/personal-data/extract';
import { ERASURE_COVERS, ERASURE_EXEMPT } from '@/lib/personal-data/erase';

describe('the personal-data inventory', () => {
  it('marks every text and JSON column, and every id pointing to a person, of every table in the schema', () => {
    expect(inventoryProblems(schemaTables(), tableInventories())).toEqual([]);
  });

  it('finds an unmarked text column, an unmarked person pointer, a table without marks, and a contradicting mark', () => {
    const things = pgTable('things', { id: uuid('id'), title: text('title'), extra: jsonb('extra'), ownerId: uuid('owner_id'), label: text('label') });
    const people = pgTable('people', { email: text('email') });
    const listed = pgTable('listed', { note: text('note'), createdBy: uuid('created_by') });
    const inventories = [
      dataInventory(things, { title: notPersonal('a title') }),
      dataInventory(listed, { note: notPersonal('wrongly'), createdBy: notPersonal('wrongly') }),
    ];
    const tables = new Map<string, PgTable>([
      ['things', things],
      ['people', people],
      ['listed', listed],
    ]);
    expect(inventoryProblems(tables, inventories)).toEqual([
      'things.extra: jsonb column without a mark (personal(...) or notPersonal(...))',
      'things.owner_id: looks like it points to a person, without a mark',
      'things.label: text column without a mark (personal(...) or notPersonal(...))',
      'people: no dataInventory(...) next to the table',
      'listed.note: marked not personal, but its name says it is',
      'listed.created_by: marked not personal, but it points to a person',
    ]);
  });

  it('refuses a mark for a column the table does not have', () => {
    const things = pgTable('things', { title: text('title') });
    expect(() => dataInventory(things, { missing: notPersonal('x') } as never)).toThrow(/things has no column missing/);
  });

  it('lists the columns the issue names: residents’ names and notes, e-mail recipients and bodies, feed tokens, the mirrored user list, closures, the audit', () => {
    const refs = personalColumns().map(columnRef);
    for (const expected of [
      'reservation_requests.resident_name',
      'reservation_requests.note',
      'mail_outbox.recipient',
      'mail_outbox.raw',
      'calendar_feeds.token_hash',
      'mirror_users.name',
      'mirror_users.email',
      'room_closures.targets',
      'admin_audit.actor_name',
      'admin_audit.target_name',
    ]) {
      expect(refs).toContain(expected);
    }
    expect(refs).not.toContain('systems.name');
    // Each with its purpose, and a retention class that exists.
    for (const column of personalColumns()) {
      expect(column.purpose.length, columnRef(column)).toBeGreaterThan(10);
      expect(RETENTION_CLASSES).toHaveProperty(column.retention);
    }
  });

  it('names the marked columns a part of the work does not cover, leaving out exempt classes', () => {
    const all = personalColumns().map(columnRef);
    expect(uncoveredColumns(all)).toEqual([]);
    const missing = uncoveredColumns(all.filter((ref) => ref !== 'reservation_requests.note'));
    expect(missing.map(columnRef)).toEqual(['reservation_requests.note']);
    const notMirror = uncoveredColumns([], ['mirror-service-owned']);
    expect(notMirror.some((c) => c.table === 'mirror_users')).toBe(false);
    expect(notMirror.map(columnRef)).toContain('reservation_requests.note');
  });

  // Issue 37's later parts each export the columns they handle, and this becomes their test.
  it('every marked column is covered by retention, but for the classes it leaves alone by design', () => {
    // Accounts live as long as the account, feeds until revoked, sign-in counters expire by
    // themselves, and the mirror is replaced by each refresh: none of them expires by age.
    const exempt = ['account-lifetime', 'feed-until-revoked', 'throttle-window', 'mirror-service-owned'] as const;
    expect(uncoveredColumns(Object.keys(RETENTION_COVERS), exempt).map(columnRef)).toEqual([]);
    // And it names no column that is not marked personal with an age-based class (a stale entry).
    const aged = new Set(personalColumns().filter((c) => !(exempt as readonly string[]).includes(c.retention)).map(columnRef));
    expect(Object.keys(RETENTION_COVERS).filter((ref) => !aged.has(ref))).toEqual([]);
  });
  // The extract leaves out the portal's own accounts ('account-lifetime': managers and admins, not
  // residents) and sign-in counters ('throttle-window': keyed by an account's address; residents never
  // sign in). lib/personal-data/extract.ts says where each covered column shows.
  it('every marked column is covered by a resident’s data extract', () => {
    expect(EXTRACT_EXEMPT).toEqual(['account-lifetime', 'throttle-window']);
    expect(uncoveredColumns(Object.keys(EXTRACT_COVERS), EXTRACT_EXEMPT).map(columnRef)).toEqual([]);
    // Nothing is claimed that the inventory does not mark personal (a stale entry would hide a gap).
    const marked = new Set(personalColumns().map(columnRef));
    expect(Object.keys(EXTRACT_COVERS).filter((ref) => !marked.has(ref))).toEqual([]);
  });
  // Erasure leaves out the portal's accounts and sign-in counters (as the extract does) and the
  // booking system's copy, which its owner erases (the next refresh follows); lib/personal-data/erase.ts
  // says what it does to each covered column, "kept" with the reason where it keeps one.
  it('every marked column is covered by a resident’s erasure', () => {
    expect(ERASURE_EXEMPT).toEqual(['account-lifetime', 'throttle-window', 'mirror-service-owned']);
    expect(uncoveredColumns(Object.keys(ERASURE_COVERS), ERASURE_EXEMPT).map(columnRef)).toEqual([]);
    const marked = new Set(personalColumns().filter((c) => !(ERASURE_EXEMPT as readonly string[]).includes(c.retention)).map(columnRef));
    expect(Object.keys(ERASURE_COVERS).filter((ref) => !marked.has(ref))).toEqual([]);
  });
});

describe('personal(...) marks', () => {
  it('carry kind, retention and purpose', () => {
    expect(personal('email', 'email-meta-13m', 'where it goes')).toEqual({ personal: true, kind: 'email', retention: 'email-meta-13m', purpose: 'where it goes' });
  });
});
