import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { PortfolioView } from '@/components/portfolio/portfolio-view';
import type { SystemPublic } from '@/lib/systems/schemas';
import { describeWithDb } from '@/tests/db';
import { withIntl } from '@/tests/intl';
import { startConnectedSandbox, type ConnectedSandbox } from '@/tests/connected-sandbox';
import { loadPortfolio } from '@/lib/reports/portfolio-load';

/** The size: a customer with 1,000 booking systems. */
const SYSTEMS = 1_000;
/** Issue 49's goal for a cold month (nothing kept); not met yet, so measured and reported rather than asserted (see docs/reports-and-exports.md). */
const COLD_GOAL_MS = 3_000;

// Issue 49's goals at 1,000 systems: the month's portfolio warm (figures kept) p50 within 300 ms,
// the page's HTML within 200 kB, cold within 3 s. One demo system's mirror, read from the sandbox,
// copied to 1,000 systems (4 rooms and 842 bookings each over eleven weeks). A measurement of a
// few minutes: only with PORTFOLIO_SCALE=1 (`PORTFOLIO_SCALE=1 npx vitest run scripts/bench/portfolio-scale.test.tsx`).
const describeScale = process.env.PORTFOLIO_SCALE === '1' ? describeWithDb : (title: string) => describe.skip(title, () => undefined);

describeScale('the portfolio at 1,000 systems', (ctx) => {
  let connected: ConnectedSandbox;
  let systems: SystemPublic[];

  beforeAll(async () => {
    connected = await startConnectedSandbox(ctx().handle.db, { sql: ctx().handle.sql, preset: 'demo', seed: 17 });
    const { sql } = ctx().handle;
    const source = connected.deviceId;
    // A copy's device id: an md5 of its number read as a uuid.
    const id = `(substr(md5(i::text), 1, 8) || '-' || substr(md5(i::text), 9, 4) || '-' || substr(md5(i::text), 13, 4) || '-' || substr(md5(i::text), 17, 4) || '-' || substr(md5(i::text), 21, 12))::uuid`;
    await sql.query(
      `INSERT INTO mirror_state (device_id, generation, refreshed_at, reservations_version)
       SELECT ${id}, s.generation, s.refreshed_at, 0 FROM generate_series(1, $2::int) i, mirror_state s WHERE s.device_id = $1`,
      [source, SYSTEMS - 1],
    );
    for (const table of ['mirror_resources (device_id, generation, id, name, description, time_schedule_id)', 'mirror_time_schedules (device_id, generation, id, schedule_type, schedule)']) {
      const [name, columns] = table.split(' (');
      const rest = columns!.replace(')', '').split(', ').slice(1).join(', ');
      await sql.query(`INSERT INTO ${name} (device_id, ${rest}) SELECT ${id}, ${rest.replaceAll(/(\w+)/g, 't.$1')} FROM generate_series(1, $2::int) i, ${name} t WHERE t.device_id = $1`, [source, SYSTEMS - 1]);
    }
    await sql.query(
      `INSERT INTO mirror_reservations (device_id, generation, id, resource_id, user_id, owner_id, owner_type, status, start_time, end_time)
       SELECT ${id}, r.generation, r.id, r.resource_id, r.user_id, r.owner_id, r.owner_type, r.status, r.start_time, r.end_time
         FROM generate_series(1, $2::int) i, mirror_reservations r WHERE r.device_id = $1`,
      [source, SYSTEMS - 1],
    );
    await sql.query('ANALYZE');
    const ids = (await sql.query<{ device_id: string }>(`SELECT device_id FROM mirror_state ORDER BY device_id`)).rows.map((r) => r.device_id);
    systems = ids.map((deviceId, i) => ({
      deviceId,
      name: `Brf ${String(i).padStart(4, '0')}`,
      timeZone: 'Europe/Stockholm',
      status: 'active',
      bookingHorizonDays: 28,
      scheduleBasis: 'utc',
      bookingQuota: 2,
      street: null,
      city: 'Uppsala',
      area: `Område ${i % 12}`,
    }));
  }, 600_000);
  afterAll(() => connected.stop());

  it('answers a month warm within 300 ms (p50) and the page stays under 200 kB; cold is measured', async () => {
    const { db, sql } = ctx().handle;
    const rows = Number((await sql.query<{ n: string }>(`SELECT count(*) AS n FROM mirror_reservations`)).rows[0]!.n);
    expect(systems).toHaveLength(SYSTEMS);
    const input = { period: 'last-month' };
    const t0 = performance.now();
    const overview = await loadPortfolio({ db }, systems, input);
    const coldMs = performance.now() - t0;
    expect(overview.summary.loaded).toBe(SYSTEMS);
    expect(overview.summary.total.counts.bookings).toBeGreaterThan(SYSTEMS);

    const warm: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t = performance.now();
      await loadPortfolio({ db }, systems, input);
      warm.push(performance.now() - t);
    }
    warm.sort((a, b) => a - b);
    const p50 = warm[Math.floor(warm.length / 2)]!;

    // One booking changes somewhere: only that system is computed again.
    await sql.query(`UPDATE mirror_state SET reservations_version = reservations_version + 1 WHERE device_id = $1`, [systems[3]!.deviceId]);
    const t1 = performance.now();
    await loadPortfolio({ db }, systems, input);
    const oneChangedMs = performance.now() - t1;

    const html = renderToStaticMarkup(withIntl(<PortfolioView overview={overview} query={new URLSearchParams(input)} page={1} />));
    console.info(
      `portfolio at ${SYSTEMS} systems, ${rows} reservations: cold ${coldMs.toFixed(0)} ms (goal ${COLD_GOAL_MS} ms), warm p50 ${p50.toFixed(1)} ms, one system changed ${oneChangedMs.toFixed(0)} ms, HTML ${(html.length / 1024).toFixed(0)} kB`,
    );
    expect(p50).toBeLessThan(300);
    expect(html.length).toBeLessThan(200 * 1024);
  }, 120_000);
});
