import { sql } from 'drizzle-orm';
import { afterEach, expect, it } from 'vitest';
import { runWithRequestContext } from '@/lib/observability/request-context';
import { newTimings, requestQueryTimer } from '@/lib/observability/server-timing';
import { describeWithDb } from '@/tests/db';
import { observeQueries } from './query-observer';

afterEach(() => observeQueries(undefined));

describeWithDb('the query observer', (ctx) => {
  it('reports each statement of a timed request to the request (Server-Timing), and none outside one', async () => {
    observeQueries(requestQueryTimer);
    const { db } = ctx().handle;
    const timings = newTimings();
    await runWithRequestContext({ requestId: 'r', timings }, async () => {
      await db.execute(sql`SELECT 1`);
      await db.execute(sql`SELECT 2`);
    });
    expect(timings.queries).toBe(2);
    expect(timings.queryMs).toBeGreaterThan(0);
    // Outside a request, and in a request that is not timed, nothing is counted (and nothing fails).
    await db.execute(sql`SELECT 3`);
    await runWithRequestContext({ requestId: 'u' }, () => db.execute(sql`SELECT 4`));
    expect(timings.queries).toBe(2);
  });

  it('counts nothing when no observer is set (the database knows no requests)', async () => {
    const { db } = ctx().handle;
    const timings = newTimings();
    await runWithRequestContext({ requestId: 'r', timings }, () => db.execute(sql`SELECT 1`));
    expect(timings.queries).toBe(0);
  });
});
