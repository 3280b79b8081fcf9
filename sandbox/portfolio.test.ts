import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './sandbox';
import { generate, PORTFOLIO_SYSTEMS_DEFAULT } from './seed';
import { openTestSql, SandboxClient, sandboxDbTargets, type TestSql } from './testing';

const NOW = new Date('2026-12-03T09:00:00Z');

// Issue 49: a housing company's thousand small systems.
describe('the portfolio preset', () => {
  it('holds a thousand small systems by default, generated in seconds, the same every time', () => {
    const startedAt = performance.now();
    const data = generate('portfolio', 1, NOW, 2);
    const ms = performance.now() - startedAt;
    expect(data.systems).toHaveLength(PORTFOLIO_SYSTEMS_DEFAULT);
    // Seconds (8 s with other work on both cores of a shared machine).
    expect(ms).toBeLessThan(30_000);
    // The same seed, the same data; another seed, other data.
    const small = generate('portfolio', 1, NOW, 2, { systems: 50 });
    expect(generate('portfolio', 1, NOW, 2, { systems: 50 })).toEqual(small);
    expect(generate('portfolio', 2, NOW, 2, { systems: 50 }).systems[0]!.id).not.toBe(small.systems[0]!.id);
  }, 60_000);

  it('gives each system 1–3 rooms, 12–90 apartments with residents, history and bookings ahead, and no name', () => {
    const data = generate('portfolio', 2, NOW, 2, { systems: 200 });
    expect(data.systems).toHaveLength(200);
    const count = <T extends { deviceId: string }>(rows: T[]) => {
      const by = new Map<string, number>();
      for (const row of rows) by.set(row.deviceId, (by.get(row.deviceId) ?? 0) + 1);
      return data.systems.map((s) => by.get(s.id) ?? 0);
    };
    const rooms = count(data.resources);
    expect(Math.min(...rooms)).toBe(1);
    expect(Math.max(...rooms)).toBe(3);
    const apartments = count(data.groups);
    expect(Math.min(...apartments)).toBeGreaterThanOrEqual(12);
    expect(Math.max(...apartments)).toBeLessThanOrEqual(90);
    expect(Math.min(...count(data.users))).toBeGreaterThan(12);
    expect(Math.min(...count(data.reservations))).toBeGreaterThan(0);
    // Four weeks back, two ahead.
    const starts = data.reservations.map((r) => Date.parse(r.startTime));
    expect(Math.min(...starts)).toBeGreaterThanOrEqual(NOW.getTime() - 29 * 86_400_000);
    expect(Math.max(...starts)).toBeGreaterThan(NOW.getTime() + 7 * 86_400_000);
    // Occupancy: most slots of the past taken, not all.
    const pastShare = data.reservations.filter((r) => Date.parse(r.startTime) < NOW.getTime()).length / data.reservations.length;
    expect(pastShare).toBeGreaterThan(0.5);
    // The service gives systems no names.
    expect(new Set(data.systems.map((s) => s.name))).toEqual(new Set(['']));
    // A couple of sample residents per system, not the demo's dozen.
    expect(Math.max(...count(data.residents))).toBeLessThanOrEqual(2);
  });

  it('spreads the systems over one big approval and several small ones, each system in one', () => {
    const data = generate('portfolio', 1, NOW, 2, { systems: 300 });
    const sizes = data.approvals.map((a) => a.deviceIds.length);
    expect(sizes[0]).toBe(180);
    expect(sizes.length).toBeGreaterThan(4);
    expect(Math.max(...sizes.slice(1))).toBeLessThanOrEqual(40);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(300);
    expect(new Set(data.approvals.flatMap((a) => a.deviceIds)).size).toBe(300);
  });
});

for (const target of sandboxDbTargets()) {
  describe(`POST /_sandbox/reset with a portfolio's size [${target}]`, () => {
    let db: TestSql;
    let sandbox: Sandbox;
    let client: SandboxClient;

    beforeAll(async () => {
      db = await openTestSql(target);
      sandbox = createSandbox({ sql: db.sql, preset: 'portfolio', systems: 5, seed: 1, workers: false });
      await sandbox.start();
      client = new SandboxClient(sandbox);
    });
    afterAll(async () => {
      await sandbox.stop();
      await db.close();
    });

    it('starts with the size it was given, resets to another, and refuses a size for another preset', async () => {
      expect((await client.fixtures()).systems).toHaveLength(5);
      const reset = await client.call('POST', '/_sandbox/reset', { json: { preset: 'portfolio', systems: 12 } });
      expect(reset.status).toBe(200);
      client.forget();
      expect((await client.fixtures()).systems).toHaveLength(12);
      const refused = await client.call('POST', '/_sandbox/reset', { json: { preset: 'tiny', systems: 12 } });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { detail: string }).detail).toContain('only for the portfolio preset');
      const tooMany = await client.call('POST', '/_sandbox/reset', { json: { preset: 'portfolio', systems: 100_000 } });
      expect(tooMany.status).toBe(400);
      // Nothing changed by the refusals.
      client.forget();
      expect((await client.fixtures()).systems).toHaveLength(12);
    });
  });
}
