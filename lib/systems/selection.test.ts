import { randomUUID } from 'node:crypto';
import { asc } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { connections, managerSystems, systems } from '@/lib/db/schema';
import { createUser } from '@/lib/auth/users';
import { sha256 } from '@/lib/crypto';
import { localizeZodError } from '@/lib/errors/validation';
import { describeWithDb } from '@/tests/db';
import { connectionOfApproval, describeSelection, pageOfManagerSystems, selectionChoices, selectionWhere, systemFilterSchema, systemSelectionSchema } from './selection';

it('parses a selection: a filter, or all said outright; an empty form, both at once or bad fields are refused with a sentence', async () => {
  const connectionId = randomUUID();
  expect(systemSelectionSchema.parse({ area: ' Norr ', match: '' })).toEqual({ match: undefined, area: 'Norr', connectionId: undefined, all: false });
  expect(systemSelectionSchema.parse({ connectionId, match: 'Storg' })).toEqual({ match: 'Storg', area: undefined, connectionId, all: false });
  expect(systemSelectionSchema.parse({ all: true, connectionId: '' })).toEqual({ match: undefined, area: undefined, connectionId: undefined, all: true });
  const refusals = async (input: unknown) => {
    const parsed = systemSelectionSchema.safeParse(input);
    if (parsed.success) throw new Error('accepted');
    return (await localizeZodError(parsed.error, 'en')).summary;
  };
  expect(await refusals({ match: '  ', area: '' })).toBe('Invalid input: name the systems: text in their name, street or city, an area, an approval, or all');
  expect(await refusals({ all: true, area: 'Norr' })).toBe('Invalid input: all systems or a filter, not both');
  expect(await refusals({ connectionId: 'nope' })).toBe('Invalid input: connectionId: must be one of the connections listed (an id as the page gives it)');
  expect(await refusals({ area: 'x'.repeat(121) })).toBe('Invalid input: area: must be at most 120 characters');
  expect(await refusals({ match: 'a\u0000b' })).toMatch(/^Invalid input: match: must not contain control characters/);
  expect(await refusals({ area: 'Norr', deviceId: randomUUID() })).toBe('Invalid input: unknown field: deviceId');
  expect(await localizeZodError(systemSelectionSchema.safeParse({}).error!, 'sv')).toMatchObject({
    summary: 'Ogiltiga uppgifter: ange vilka system: text i namn, gata eller ort, ett område, ett godkännande eller alla',
  });
  // A page's filter may be empty: every system.
  expect(systemFilterSchema.parse({})).toEqual({});
  expect(describeSelection(systemSelectionSchema.parse({ all: true }))).toEqual({ all: true });
  expect(describeSelection(systemSelectionSchema.parse({ area: 'Norr', match: 'gatan', connectionId }))).toEqual({ match: 'gatan', area: 'Norr', approval: true });
});

describeWithDb('system selection', (ctx) => {
  const db = () => ctx().handle.db;
  const ids = { north1: randomUUID(), north2: randomUUID(), south: randomUUID(), percent: randomUUID(), bare: randomUUID() };
  let first = '';
  let second = '';

  it('selects by text in name, street or city (any case, LIKE characters literal), by area (any case), by connection, and all', async () => {
    const [a, b] = await db()
      .insert(connections)
      .values([
        { approvalFingerprint: sha256('approval-a'), apiKeyCiphertext: 'x', createdAt: new Date('2026-01-01T00:00:00Z') },
        { approvalFingerprint: sha256('approval-b'), apiKeyCiphertext: 'x', createdAt: new Date('2026-02-01T00:00:00Z') },
      ])
      .returning({ id: connections.id });
    first = a!.id;
    second = b!.id;
    await db()
      .insert(systems)
      .values([
        { deviceId: ids.north1, connectionId: first, name: 'Brf Storgatan', street: 'Storgatan 1', city: 'Umeå', area: 'Norr' },
        { deviceId: ids.north2, connectionId: first, name: 'Brf Ekhagen', street: 'Ekvägen 4', city: 'Luleå', area: 'norr' },
        { deviceId: ids.south, connectionId: second, name: 'Brf Söderport', street: 'Storgatan 9', city: 'Malmö', area: 'Söder' },
        { deviceId: ids.percent, connectionId: second, name: '50% rabatt', city: 'Lund' },
        { deviceId: ids.bare, connectionId: second, name: 'Brf 50 år' },
      ]);
    const selected = async (input: Record<string, unknown>) =>
      (await db().select({ id: systems.deviceId }).from(systems).where(selectionWhere(systemSelectionSchema.parse(input))).orderBy(asc(systems.name))).map((r) => r.id);
    expect(await selected({ match: 'storgatan' })).toEqual([ids.north1, ids.south]);
    expect(await selected({ match: 'LULEÅ' })).toEqual([ids.north2]);
    expect(await selected({ match: '50%' })).toEqual([ids.percent]);
    expect(await selected({ match: '50_' })).toEqual([]);
    expect(await selected({ area: 'NORR' })).toEqual([ids.north2, ids.north1]);
    expect(await selected({ area: 'Nor' })).toEqual([]);
    expect(await selected({ connectionId: second })).toEqual([ids.percent, ids.bare, ids.south]);
    expect(await selected({ connectionId: second, match: 'storgatan' })).toEqual([ids.south]);
    expect(await selected({ area: 'Norr', match: 'Umeå' })).toEqual([ids.north1]);
    expect(await selected({ all: true })).toHaveLength(5);
  });

  it('lists the areas and connections to choose from, and finds a connection by its approval id', async () => {
    const choices = await selectionChoices(db());
    // Areas as stored: "Norr" and "norr" are two spellings an admin may want to see and tidy.
    expect(choices.areas).toEqual([
      { area: 'Norr', systems: 1 },
      { area: 'Söder', systems: 1 },
      { area: 'norr', systems: 1 },
    ]);
    expect(choices.connections).toEqual([
      { id: first, createdAt: new Date('2026-01-01T00:00:00Z'), systems: 2, firstName: 'Brf Ekhagen' },
      { id: second, createdAt: new Date('2026-02-01T00:00:00Z'), systems: 3, firstName: '50% rabatt' },
    ]);
    expect(await connectionOfApproval(db(), 'approval-b')).toBe(second);
    expect(await connectionOfApproval(db(), 'approval-c')).toBeUndefined();
  });

  it('pages a manager’s systems by name, filtered, with the total', async () => {
    const manager = await createUser(db(), { email: 'pia@example.com', name: 'Pia', role: 'manager' });
    await db().insert(managerSystems).values([ids.north1, ids.north2, ids.south].map((deviceId) => ({ userId: manager.id, deviceId })));
    const page1 = await pageOfManagerSystems(db(), manager.id, {}, 1, 2);
    expect(page1).toMatchObject({ page: 1, pageCount: 2, total: 3 });
    expect(page1.systems.map((s) => s.name)).toEqual(['Brf Ekhagen', 'Brf Storgatan']);
    expect((await pageOfManagerSystems(db(), manager.id, {}, 2, 2)).systems.map((s) => s.name)).toEqual(['Brf Söderport']);
    expect(await pageOfManagerSystems(db(), manager.id, {}, 3, 2)).toEqual({ systems: [], page: 3, pageCount: 2, total: 3 });
    const filtered = await pageOfManagerSystems(db(), manager.id, systemFilterSchema.parse({ match: 'storgatan' }), 1);
    expect(filtered).toMatchObject({ total: 2, pageCount: 1 });
    expect(filtered.systems[0]).toEqual({ deviceId: ids.north1, name: 'Brf Storgatan', street: 'Storgatan 1', city: 'Umeå', area: 'Norr' });
  });
});
