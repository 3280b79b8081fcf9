import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, type SandboxFixtures } from '@/sandbox';
import { startTestSandbox } from '@/tests/sandbox-service';
import { describeWithDb } from '@/tests/db';
import { createServiceClient, type ServiceClient, type UserAccount, type UserGroup } from '@/lib/service';
import { waitForRefresh } from '@/lib/mirror/refresh';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { readState } from '@/lib/mirror/store';
import type { SystemPublic } from '@/lib/systems/schemas';
import { systemMirror, type ViewDeps } from './freshness';
import { findResidents, type ResidentSearchDeps } from './residents';

const TZ = 'Europe/Stockholm';
const systemOf = (deviceId: string, name: string): SystemPublic => ({ deviceId, name, timeZone: TZ, status: 'active', bookingHorizonDays: 28, scheduleBasis: 'utc', bookingQuota: 2 , street: null, city: null, area: null });

/** A system's groups and users as the upstream lists them (what the mirror copies). */
interface Upstream {
  groups: UserGroup[];
  users: UserAccount[];
}

describeWithDb('resident search as you type, over the mirrored user lists', (ctx) => {
  let sandbox: Sandbox;
  let fixtures: SandboxFixtures;
  let client: ServiceClient;
  /** The same sandbox, except that it has no users/fetch (a service without the user list). */
  let noUserList: ServiceClient;
  let keyA: string;
  let keyB: string;
  let a0: SystemPublic;
  let a1: SystemPublic;
  let b: SystemPublic;
  const upstream = new Map<string, Upstream>();
  let upstreamCalls = 0;

  beforeAll(async () => {
    ({ sandbox, fixtures, client } = await startTestSandbox({ sql: ctx().handle.sql, preset: 'demo', seed: 5 }));
    noUserList = createServiceClient({
      baseUrl: 'http://sandbox.test',
      tokenUrl: `http://sandbox.test${fixtures.tokenPath}`,
      clientId: fixtures.clientId,
      clientSecret: fixtures.clientSecret,
      scope: fixtures.scope,
      fetch: (request) =>
        new URL(request.url).pathname.includes('/users/fetch/')
          ? Promise.resolve(Response.json({ title: 'Not Found', status: 404 }, { status: 404, headers: { 'content-type': 'application/problem+json' } }))
          : sandbox.fetch(request),
    });
    const [first, second] = fixtures.approvals;
    if (!first?.deviceIds[1] || !second?.deviceIds[0]) throw new Error('the demo preset has two approvals, the first with two systems');
    keyA = (await client.apiKeys.generate(first.approvalId)).apiKey;
    keyB = (await client.apiKeys.generate(second.approvalId)).apiKey;
    const named = (deviceId: string) => systemOf(deviceId, fixtures.systems.find((s) => s.deviceId === deviceId)!.name);
    [a0, a1, b] = [named(first.deviceIds[0]!), named(first.deviceIds[1]), named(second.deviceIds[0])];
    for (const [system, key, source] of [
      [a0, keyA, client],
      [a1, keyA, client],
      [b, keyB, noUserList],
    ] as const) {
      const deps: ViewDeps = { db: ctx().handle.db, source: () => Promise.resolve(serviceMirrorSource(source, key)), freshnessMs: 60_000 };
      await systemMirror(deps, system.deviceId);
      await waitForRefresh(system.deviceId);
      upstream.set(system.deviceId, {
        groups: await client.userGroups.list(key, system.deviceId, { pageSize: 100 }).toArray({ limit: 100_000 }),
        users: await client.users.all(key, system.deviceId),
      });
    }
  }, 120_000);

  afterAll(async () => {
    await sandbox.stop();
  });

  /** A search whose upstream lookups are counted (the sandbox answers them). */
  const deps = (systems: SystemPublic[]): ResidentSearchDeps => {
    const counted = <A extends unknown[], R>(call: (...args: A) => Promise<R>) => (...args: A) => (upstreamCalls++, call(...args));
    return {
      db: ctx().handle.db,
      client: { users: { ...client.users, byApartment: counted(client.users.byApartment), byEmail: counted(client.users.byEmail), byReference: counted(client.users.byReference) } },
      systems,
      apiKeyOf: (deviceId) => Promise.resolve(deviceId === b.deviceId ? keyB : keyA),
    };
  };

  /** A group of the system with a "LGH nnnn" apartment, and its users. */
  const lghApartment = (system: SystemPublic) => {
    const { groups, users } = upstream.get(system.deviceId)!;
    const group = groups.find((g) => g.apartmentId?.startsWith('LGH ') && users.some((u) => u.userGroupId === g.id));
    if (!group) throw new Error('the demo preset has an "LGH" apartment with residents');
    return { group, residents: users.filter((u) => u.userGroupId === group.id) };
  };

  it('holds the user lists of the systems whose service has users/fetch, and none where it lacks it', async () => {
    expect((await readState(ctx().handle.db, a0.deviceId))?.usersRefreshedAt).not.toBeNull();
    expect((await readState(ctx().handle.db, b.deviceId))).toMatchObject({ usersRefreshedAt: null, usersStatus: 'unavailable' });
  });

  it('finds the reported queries across the demo data, without asking the upstream', async () => {
    const search = deps([a0, a1]);
    const { group, residents } = lghApartment(a0);
    const number = group.apartmentId.slice(4);
    const reference = group.referenceId;
    const person = residents[0]!;
    const [first, ...rest] = person.name.split(' ');
    const surname = rest.join(' ');
    const before = upstreamCalls;

    const top = async (q: string) => (await findResidents(search, q)).apartments[0];
    for (const q of [group.apartmentId, group.apartmentId.toLowerCase(), `LGH${number}`, reference.toLowerCase(), reference.slice(-6)]) {
      const hit = await top(q);
      expect(hit, q).toMatchObject({ deviceId: a0.deviceId, systemName: a0.name, groupId: group.id, apartmentId: group.apartmentId, referenceId: reference });
      // Found by its key: every resident of the apartment is listed.
      expect(hit!.residents.map((r) => r.userId).sort(), q).toEqual(residents.map((u) => u.userId).sort());
    }
    // A bare number finds "LGH nnnn" among the exact matches (another system may have an apartment nnnn).
    const bare = await findResidents(search, number);
    expect(bare.apartments.slice(0, 3).map((a) => a.groupId)).toContain(group.id);

    for (const q of [surname, person.name, `${first!.toLowerCase()} ${surname.toLowerCase()}`, first!.toLowerCase()]) {
      const found = await findResidents(search, q);
      const mine = found.apartments.find((a) => a.groupId === group.id);
      expect(mine?.residents.map((r) => r.userId), q).toContain(person.userId);
      // Every listed resident matches every word.
      for (const a of found.apartments) for (const r of a.residents) for (const w of q.toLowerCase().split(' ')) expect(r.name.toLowerCase()).toContain(w);
    }
    // An apartment with a stair ("B/4003") by its lower-case form.
    const slashed = upstream.get(a1.deviceId)!.groups.find((g) => g.apartmentId?.includes('/')) ?? upstream.get(a0.deviceId)!.groups.find((g) => g.apartmentId?.includes('/'));
    if (slashed) expect((await top(slashed.apartmentId.toLowerCase()))?.groupId).toBe(slashed.id);
    // An e-mail prefix in upper case.
    const mailed = await findResidents(search, person.email.slice(0, 8).toUpperCase());
    expect(mailed.apartments.flatMap((a) => a.residents.map((r) => r.userId))).toContain(person.userId);

    expect(await findResidents(search, '   ')).toEqual({ apartments: [], truncated: false });
    expect(await findResidents(search, 'zzzz-nobody')).toEqual({ apartments: [], truncated: false });
    // Many matches are cut off and flagged.
    const many = await findResidents(search, 'ref');
    expect(many.apartments).toHaveLength(20);
    expect(many.truncated).toBe(true);
    expect(upstreamCalls).toBe(before);
  });

  it('never shows a resident of a system the viewer is not assigned to', async () => {
    const { group, residents } = lghApartment(a1);
    const onlyA0 = deps([a0]);
    for (const q of [group.apartmentId, group.referenceId, residents[0]!.name, residents[0]!.email, 'a', 'ref', 'anna']) {
      const found = await findResidents(onlyA0, q);
      expect(found.apartments.every((a) => a.deviceId === a0.deviceId), q).toBe(true);
      expect(found.apartments.flatMap((a) => a.residents.map((r) => r.userId))).not.toContain(residents[0]!.userId);
    }
    // The other manager's system, searched through its fallback lookups, is not visible either.
    const other = lghApartment(b);
    expect((await findResidents(onlyA0, other.group.apartmentId)).apartments.filter((a) => a.deviceId === b.deviceId)).toEqual([]);
  });

  it('falls back to the exact upstream lookups for a system without a user list', async () => {
    const { group, residents } = lghApartment(b);
    const search = deps([a0, b]);
    const before = upstreamCalls;
    const found = await findResidents(search, group.apartmentId);
    expect(upstreamCalls).toBeGreaterThan(before);
    const hit = found.apartments.find((a) => a.deviceId === b.deviceId);
    expect(hit).toMatchObject({ systemName: b.name, groupId: group.id, apartmentId: group.apartmentId, referenceId: group.referenceId });
    expect(hit!.residents.map((r) => r.userId).sort()).toEqual(residents.map((u) => u.userId).sort());
    // By reference id, and by an exact e-mail address.
    expect((await findResidents(search, group.referenceId)).apartments.map((a) => a.groupId)).toContain(group.id);
    const byMail = await findResidents(search, residents[0]!.email);
    expect(byMail.apartments.find((a) => a.deviceId === b.deviceId)?.residents.map((r) => r.userId)).toEqual([residents[0]!.userId]);
    // Whatever is typed goes to the lookups percent-encoded and answers, possibly with nothing.
    for (const q of ['%_\'";--', 'a/b?c#d', '../..', 'x'.repeat(254)]) {
      expect((await findResidents(search, q)).apartments.filter((a) => a.deviceId === b.deviceId), q).toEqual([]);
    }
    // Only exact keys: a name is not something the lookups know.
    expect((await findResidents(search, residents[0]!.name)).apartments.filter((a) => a.deviceId === b.deviceId)).toEqual([]);
  });
});
