import { randomBytes, randomUUID } from 'node:crypto';
import { apiErrorText } from '@/tests/message-text';
import { expect, it } from 'vitest';
import { ApiError } from '@/lib/errors/api-error';
import { checkSystemAccess, listAccessibleSystemsIn, visibleTo } from '@/lib/auth/access';
import { createUser, setManagerSystems } from '@/lib/auth/users';
import { describeWithDb } from '@/tests/db';
import { connectApproval, type ApiKeyGenerator } from './connect';
import { readTogether } from '@/lib/db/read-together';
import { readSystemApiKey, systemsWithKeysRead, updateSystem } from './store';

const encryptionKey = randomBytes(32);
const APPROVAL_1 = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const APPROVAL_2 = '6fa459ea-ee8a-3ca4-894e-db77e160355e';

function recordingGenerator(apiKey: string, deviceIds: string[]) {
  const calls: string[] = [];
  const generate: ApiKeyGenerator = (approvalId) => {
    calls.push(approvalId);
    return Promise.resolve({ apiKey, deviceIds });
  };
  return { calls, generate };
}

describeWithDb('connecting systems and access to them', (ctx) => {
  const a = randomUUID();
  const b = randomUUID();
  const c = randomUUID();

  it('stores the API key encrypted and lists the systems with names and the default time zone', async () => {
    const { db, sql } = ctx().handle;
    const upstream = recordingGenerator('key-AAAA-1111', [a, b]);
    const systems = await connectApproval(db, ` ${APPROVAL_1} `, { ...upstream, encryptionKey, names: new Map([[a, 'Lindgården']]) });
    expect(upstream.calls).toEqual([APPROVAL_1]);
    expect(systems.map((s) => s.name).sort()).toEqual(['Lindgården', `System ${b.slice(0, 8)}`].sort());
    expect(systems.every((s) => s.timeZone === 'Europe/Stockholm' && s.status === 'active')).toBe(true);
    const { rows } = await sql.query<{ api_key_ciphertext: string; approval_fingerprint: string }>('SELECT api_key_ciphertext, approval_fingerprint FROM connections');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.api_key_ciphertext).not.toContain('key-AAAA');
    expect(rows[0]?.approval_fingerprint).not.toContain(APPROVAL_1);
    expect(await readSystemApiKey(db, a, encryptionKey)).toBe('key-AAAA-1111');
    expect(await readSystemApiKey(db, b, encryptionKey)).toBe('key-AAAA-1111');
    expect(await readSystemApiKey(db, c, encryptionKey)).toBeUndefined();
  });

  it('refuses a malformed approval id without calling the upstream', async () => {
    const upstream = recordingGenerator('k', [c]);
    for (const bad of ['', 'not-a-uuid', 'a/b', '../x', 'x'.repeat(201), 42]) {
      await expect(connectApproval(ctx().handle.db, bad, { ...upstream, encryptionKey })).rejects.toMatchObject({ code: 'bad_request' });
    }
    await expect(connectApproval(ctx().handle.db, 'not-a-uuid', { ...upstream, encryptionKey })).rejects.toMatchObject({
      reason: 'approvalIdInvalid',
    });
    expect(apiErrorText(await connectApproval(ctx().handle.db, 'not-a-uuid', { ...upstream, encryptionKey }).catch((e: unknown) => e))).toBe(
      'The approval id must be an approval id as the system owner gave it: 32 hexadecimal digits in groups, such as 1b4e28ba-2fa1-11d2-883f-0016d3cca427. Nothing was sent to the service.',
    );
    expect(upstream.calls).toEqual([]);
  });

  it('refuses an upstream answer that is not a key with system ids, storing nothing', async () => {
    const { db, sql } = ctx().handle;
    const generate: ApiKeyGenerator = () => Promise.resolve({ apiKey: 'k', deviceIds: ['not-a-uuid'] });
    await expect(connectApproval(db, APPROVAL_2, { generate, encryptionKey })).rejects.toMatchObject({ code: 'bad_gateway' });
    const { rows } = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM connections');
    expect(rows[0]?.n).toBe(1);
  });

  it('re-connecting an approval replaces the key and keeps names and time zones chosen by the admin', async () => {
    const { db } = ctx().handle;
    await updateSystem(db, b, { name: 'Björkhagen', timeZone: 'Europe/Helsinki' });
    const systems = await connectApproval(db, APPROVAL_1, { ...recordingGenerator('key-BBBB-2222', [a, b, c]), encryptionKey });
    expect(systems.find((s) => s.deviceId === b)).toMatchObject({ name: 'Björkhagen', timeZone: 'Europe/Helsinki' });
    expect(systems).toHaveLength(3);
    expect(await readSystemApiKey(db, a, encryptionKey)).toBe('key-BBBB-2222');
  });

  it('lets a manager use only assigned systems; anything else is 403, existing or not', async () => {
    const { db } = ctx().handle;
    const manager = await createUser(db, { email: 'm@example.com', name: 'M', role: 'manager' });
    const admin = await createUser(db, { email: 'adm@example.com', name: 'A', role: 'admin' });
    await setManagerSystems(db, manager.id, [a]);
    expect(await checkSystemAccess(db, manager, a)).toMatchObject({ deviceId: a });
    for (const other of [b, randomUUID()]) {
      const error = await checkSystemAccess(db, manager, other).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ code: 'forbidden' });
    }
    expect((await listAccessibleSystemsIn(db, manager)).map((s) => s.deviceId)).toEqual([a]);
    expect(await listAccessibleSystemsIn(db, admin)).toHaveLength(3);
    expect(await checkSystemAccess(db, admin, b)).toMatchObject({ deviceId: b });
    await expect(checkSystemAccess(db, admin, randomUUID())).rejects.toMatchObject({ code: 'not_found' });
  });

  it('lists the systems a viewer may see with their keys in one read, the same list as without keys', async () => {
    const { db } = ctx().handle;
    const manager = await createUser(db, { email: 'k@example.com', name: 'K', role: 'manager' });
    const admin = await createUser(db, { email: 'kadm@example.com', name: 'KA', role: 'admin' });
    await setManagerSystems(db, manager.id, [b]);
    const withKeys = async (userId: string) => (await readTogether(db, { s: systemsWithKeysRead(visibleTo(userId), encryptionKey) })).s;
    const mine = await withKeys(manager.id);
    expect(mine.systems).toEqual(await listAccessibleSystemsIn(db, manager));
    expect(mine.apiKeyOf(b)).toBe('key-BBBB-2222');
    // A system outside the list has no key here, even though it exists.
    expect(mine.apiKeyOf(a)).toBeUndefined();
    const all = await withKeys(admin.id);
    expect(all.systems).toEqual(await listAccessibleSystemsIn(db, admin));
    expect(all.systems.map((s) => all.apiKeyOf(s.deviceId))).toEqual(all.systems.map(() => 'key-BBBB-2222'));
    expect(Object.keys(all.systems[0]!).sort()).toEqual(['area', 'bookingHorizonDays', 'bookingQuota', 'city', 'deviceId', 'name', 'scheduleBasis', 'status', 'street', 'timeZone']);
  });

  it('refuses to assign unknown systems or to assign systems to an admin, changing nothing', async () => {
    const { db } = ctx().handle;
    const manager = await createUser(db, { email: 'n@example.com', name: 'N', role: 'manager' });
    await setManagerSystems(db, manager.id, [a]);
    await expect(setManagerSystems(db, manager.id, [b, randomUUID()])).rejects.toMatchObject({ code: 'bad_request' });
    expect((await listAccessibleSystemsIn(db, manager)).map((s) => s.deviceId)).toEqual([a]);
  });
});
