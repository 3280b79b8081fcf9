// npm run test:scale — two portal instances on one PostgreSQL: a webhook delivered to instance A
// reaches SSE clients of instance B (latency reported), and terminating the listener connections
// (pg_terminate_backend) mid-stream loses and duplicates nothing. Needs TEST_DATABASE_URL.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createAdmin, createPendingRequests, openSse, signIn, webhookSender, type SseClient } from './harness/portal-client';
import { cleanup, createDatabase, ensureBuild, launchPortal, root, secret, startSandbox, waitFor } from './harness/processes';
import { percentile, sleep } from './bench/http';

const adminUrl = process.env.TEST_DATABASE_URL;
const portA = Number(process.env.SCALE_PORT_A ?? 3301);
const portB = Number(process.env.SCALE_PORT_B ?? 3302);
const sandboxPort = Number(process.env.SCALE_SANDBOX_PORT ?? 4041);
const EVENTS = 200;
const SEND_INTERVAL_MS = 20;

const failures: string[] = [];
const check = (ok: boolean, message: string) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${message}`);
  if (!ok) failures.push(message);
};

interface Tally {
  sent: number;
  received: number;
  lost: number;
  duplicated: number;
  outOfOrder: number;
}

function tally(client: SseClient, expected: Set<string>): Tally {
  const mine = client.events.filter((e) => expected.has(e.requestId));
  const distinct = new Set(mine.map((e) => e.requestId));
  let outOfOrder = 0;
  for (let i = 1; i < mine.length; i += 1) if ((mine[i]?.id ?? 0) <= (mine[i - 1]?.id ?? 0)) outOfOrder += 1;
  return { sent: expected.size, received: distinct.size, lost: expected.size - distinct.size, duplicated: mine.length - distinct.size, outOfOrder };
}

async function listenerPids(db: pg.Client, name: string): Promise<number[]> {
  const { rows } = await db.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'portal-event-listener'`,
    [name],
  );
  return rows.map((r) => r.pid);
}

async function main(): Promise<void> {
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set: the scale test needs a PostgreSQL server');
  const started = Date.now();
  await ensureBuild();
  const database = await createDatabase(adminUrl, 'portal_scale');
  const { url: sandboxUrl, fixtures } = await startSandbox(sandboxPort, 'tiny');
  const config = {
    databaseUrl: database.url,
    sandboxUrl,
    fixtures,
    webhookSecret: `whsec_${secret()}`,
    authSecret: secret(48),
    encryptionKey: secret(32),
  };
  // One first, so that the two do not both wait on the migration lock at once (they could).
  // The webhooks here are this script's own (webhookSender), not the sandbox's.
  const a = await launchPortal(portA, config, {}, { webhook: false });
  const b = await launchPortal(portB, config, {}, { webhook: false });
  console.log(`== instances up: ${a.url}, ${b.url} (database ${database.name}, sandbox ${sandboxUrl})`);

  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    await waitFor('both listener connections', async () => (await listenerPids(db, database.name)).length >= 2, 30_000);
    const account = await createAdmin(db);
    const [cookieA, cookieB] = await Promise.all([signIn(a.url, account), signIn(b.url, account)]);
    const sseB = openSse(b.url, cookieB);
    const sseA = openSse(a.url, cookieA);
    await Promise.all([sseA.opened, sseB.opened]);
    const sender = webhookSender(config.webhookSecret);
    const deviceId = randomUUID();
    const statuses: number[] = [];

    // Phase 1: latency, A → B: one delivery at a time (so that queueing in front of a busy
    // instance does not pass for delivery latency), measured from sending to B's SSE frame.
    const phase1 = await createPendingRequests(db, deviceId, EVENTS);
    const sentAt = new Map<string, number>();
    const ackAt = new Map<string, number>();
    for (const { correlationId, requestId } of phase1) {
      sentAt.set(requestId, performance.now());
      const response = await sender.send(a.url, sender.build(correlationId));
      ackAt.set(requestId, performance.now());
      statuses.push(response.status);
      await response.body?.cancel();
      await sleep(SEND_INTERVAL_MS);
    }
    const expected1 = new Set(phase1.map((r) => r.requestId));
    await waitFor('phase 1 events on B', () => Promise.resolve(tally(sseB, expected1).received >= EVENTS), 15_000).catch(() => undefined);
    await sleep(300);
    const latencies = sseB.events.filter((e) => expected1.has(e.requestId)).map((e) => e.receivedAt - (sentAt.get(e.requestId) ?? e.receivedAt));
    const stats = (values: number[]) => ({
      p50: percentile(values, 50), p95: percentile(values, 95), p99: percentile(values, 99), max: Math.max(...values),
    });
    const latency = stats(latencies);
    // From A's 200 (the commit) to B's frame: the cross-instance leg alone (negative when B was first).
    const fromCommit = stats(sseB.events.filter((e) => expected1.has(e.requestId)).map((e) => e.receivedAt - (ackAt.get(e.requestId) ?? e.receivedAt)));
    const ackMs = stats(phase1.map((r) => (ackAt.get(r.requestId) ?? 0) - (sentAt.get(r.requestId) ?? 0)));
    const t1B = tally(sseB, expected1);
    const t1A = tally(sseA, expected1);

    // Phase 2: the listener connections of both instances are terminated twice mid-stream.
    const pidsBefore = await listenerPids(db, database.name);
    const phase2 = await createPendingRequests(db, deviceId, EVENTS);
    let terminations = 0;
    const inflight2: Promise<void>[] = [];
    for (const [i, { correlationId }] of phase2.entries()) {
      if (i === 50 || i === 130) {
        for (const pid of await listenerPids(db, database.name)) {
          await db.query('SELECT pg_terminate_backend($1)', [pid]);
          terminations += 1;
        }
      }
      inflight2.push(sender.send(i % 2 === 0 ? a.url : b.url, sender.build(correlationId)).then((r) => { statuses.push(r.status); return r.body?.cancel(); }));
      await sleep(SEND_INTERVAL_MS);
    }
    await Promise.all(inflight2);
    const expected2 = new Set(phase2.map((r) => r.requestId));
    await waitFor('phase 2 events on both', () => Promise.resolve(tally(sseB, expected2).received >= EVENTS && tally(sseA, expected2).received >= EVENTS), 20_000).catch(() => undefined);
    await sleep(500);
    const t2B = tally(sseB, expected2);
    const t2A = tally(sseA, expected2);
    const pidsAfter = await listenerPids(db, database.name);
    const stored = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM portal_events WHERE device_id = $1', [deviceId]);
    sseA.close();
    sseB.close();

    const report = {
      instances: 2,
      phase1: { from: 'A', to: 'B', ...t1B, onA: t1A, latencyMs: latency, webhookAnswerMs: ackMs, commitToBMs: fromCommit },
      phase2: { listenerTerminations: terminations, onB: t2B, onA: t2A, sseReconnects: { a: sseA.reconnects, b: sseB.reconnects } },
      eventsStored: stored.rows[0]?.n,
      webhookAnswers: Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length])),
      seconds: Math.round((Date.now() - started) / 1000),
    };
    writeFileSync(path.join(root, 'test-results', 'scale-report.json'), JSON.stringify(report, null, 2));
    console.log(`== A → B latency over ${latencies.length} events: p50 ${latency.p50.toFixed(1)} ms, p95 ${latency.p95.toFixed(1)} ms, p99 ${latency.p99.toFixed(1)} ms, max ${latency.max.toFixed(1)} ms (target p99 ≤ 150 ms: ${latency.p99 <= 150 ? 'met' : 'NOT met'})`);
    console.log(`   of which A's webhook answer: p50 ${ackMs.p50.toFixed(1)} ms, p99 ${ackMs.p99.toFixed(1)} ms; A's answer → B's frame: p50 ${fromCommit.p50.toFixed(1)} ms, p99 ${fromCommit.p99.toFixed(1)} ms`);
    console.log(`== phase 1: sent ${t1B.sent}, received on B ${t1B.received}, lost ${t1B.lost}, duplicated ${t1B.duplicated}; on A ${t1A.received}/${t1A.sent}`);
    console.log(`== phase 2 (${terminations} listener connections terminated): on B received ${t2B.received}/${t2B.sent}, lost ${t2B.lost}, duplicated ${t2B.duplicated}; on A received ${t2A.received}/${t2A.sent}, lost ${t2A.lost}, duplicated ${t2A.duplicated}`);

    check(statuses.length === 2 * EVENTS && statuses.every((s) => s === 200), `every webhook answered 200 (${JSON.stringify(report.webhookAnswers)})`);
    for (const [name, t] of [['phase 1 on B', t1B], ['phase 1 on A', t1A], ['phase 2 on B', t2B], ['phase 2 on A', t2A]] as const) {
      check(t.lost === 0 && t.duplicated === 0 && t.outOfOrder === 0, `${name}: nothing lost, duplicated or out of order (${t.received}/${t.sent})`);
    }
    check(terminations >= 4, `listener connections were terminated (${terminations})`);
    check(pidsAfter.length === 2 && pidsAfter.every((p) => !pidsBefore.includes(p)), 'both instances listen again on new connections');
    check(stored.rows[0]?.n === 2 * EVENTS, `each outcome stored once (${stored.rows[0]?.n} events)`);
  } finally {
    await db.end();
  }
}

let code = 0;
try {
  await main();
  if (failures.length > 0) code = 1;
} catch (error) {
  console.error('test:scale failed:', error);
  code = 1;
} finally {
  await cleanup();
}
console.log(code === 0 ? '== test:scale passed' : `== test:scale FAILED (${failures.length} checks; logs in test-results/scale-logs/)`);
process.exit(code);
