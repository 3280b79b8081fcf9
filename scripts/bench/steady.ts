// Bench phase (l), steady use: what viewing a large system all day costs the upstream. Two
// `next start` instances on one fresh PostgreSQL database (created here, dropped after), remote
// mode against the bench's standalone sandbox; simulated managers (signed-in HTTP sessions, split
// over the two instances) each open the week grid of a random room every few seconds. The cost is
// counted where it lands, at the sandbox (GET /_sandbox/stats): upstream requests per system and
// full re-pages (first pages of the reservations list), against the refresh policy's bounds
// (lib/mirror/policy.ts): one re-page per freshness window at most, and the request budget. The
// instances run with a budget scaled to the window and the window starts with the bucket emptied,
// so that several budget-bound re-reads fall in it (scripts/bench/steady-target.ts says why and
// holds the target).
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import pg from 'pg';
import { weekKeyOf } from '@/lib/schedule';
import type { SandboxFixtures } from '@/sandbox';
import { createDatabase, cleanup as dropDatabases, sandboxServiceEnv } from '../harness/processes';
import { PortalSession, percentile, round, sleep } from './http';
import { startProcess, stopProcess, type Tracked } from './proc';
import { evaluateSteady, type SteadyVerdict } from './steady-target';

export interface SteadyOptions {
  root: string;
  tmp: string;
  node: string;
  sandboxUrl: string;
  fixtures: SandboxFixtures;
  approvalId: string;
  deviceId: string;
  resourceIds: readonly string[];
  /** A PostgreSQL server where a database may be created (postgres://postgres@127.0.0.1:5432). */
  pgAdminUrl: string;
  ports: readonly [number, number];
  minutes: number;
  managers: number;
  freshnessS: number;
  /** The portal's default MIRROR_REQUEST_BUDGET_PER_HOUR, unless overridden. */
  budgetPerHour: number;
  /** Set MIRROR_REQUEST_BUDGET_PER_HOUR on the instances (default: leave the portal's default). */
  budgetOverride?: number;
  /** Empty the system's bucket when the window starts (as after an hour of steady use). Default true. */
  emptyBucket?: boolean;
  /** Each manager waits this long between two views (uniform, ms). */
  thinkMs: readonly [number, number];
  step: (message: string) => void;
}

/** The counts of GET /_sandbox/stats (sandbox/stats.ts). */
interface RouteCount {
  requests: number;
  firstPages: number;
  errors: number;
}
interface SandboxStats {
  since: string;
  total: number;
  byDevice: Record<string, { requests: number; byRoute: Record<string, RouteCount> }>;
}

export interface SteadyMeasurement {
  instances: number;
  managers: number;
  /** The first load of the system on the fresh database: one full re-page. */
  coldLoad: { ms: number; requests: number; reservationPages: number };
  window: { seconds: number; requests: number; rePages: number; byRoute: Record<string, RouteCount> };
  /** The budget of the instances (0: none), and the bucket's tokens when the window started. */
  budgetPerHour: number;
  startTokens: number;
  requestsPerHour: number;
  /** The target (scripts/bench/steady-target.ts): re-reads expected and made, requests per re-read, the checks. */
  verdict: SteadyVerdict;
  /** Seconds waited after the window for the re-reads still running (their requests count). */
  settleS: number;
  /** The same use with the budget off: a re-page every window plus its duration. */
  unboundedPerHour: number;
  views: { count: number; errors: number; p50Ms: number; p95Ms: number; deferredByBudget: number; refreshing: number; lastNextRefreshAt: string | null };
  /** When each full re-page started, in seconds into the window (the sandbox's counts sampled every 10 s). */
  rePageStartsS: number[];
  /** portal_mirror_refresh_requests_total of the system, summed over both instances (their own count). */
  portalCounted: number | null;
  budgetTokensAtEnd: number | null;
}

interface WeekResponse {
  freshness: { status: 'loading' | 'ready'; refreshing: boolean; nextRefreshAt?: string | null; deferredBy?: string | null };
}

const RESERVATIONS = 'GET /v1/reservations/{deviceId}/all';
/** How often the sandbox's counts are read to time the re-reads' starts. */
const SAMPLE_S = 2;

/** Waits until the sandbox has counted no request for 3 s (the refreshes running have ended), at most 3 min. */
async function settle(stats: () => Promise<SandboxStats>): Promise<void> {
  const deadline = Date.now() + 180_000;
  let last = -1;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    const total = (await stats()).total;
    if (total !== last) {
      last = total;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= 3_000) return;
    await sleep(500);
  }
  throw new Error('the upstream requests did not stop within 3 minutes of the window');
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url} answered ${response.status}`);
  return (await response.json()) as T;
}

/** The sum of one metric's samples for a system over the instances' /api/metrics. */
async function scrape(urls: readonly string[], token: string, metric: string, deviceId: string): Promise<number | null> {
  let sum: number | null = null;
  for (const url of urls) {
    const text = await (await fetch(`${url}/api/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
    for (const line of text.split('\n')) {
      if (line.startsWith(`${metric}{`) && line.includes(`system="${deviceId}"`)) sum = (sum ?? 0) + Number(line.split(' ').at(-1));
    }
  }
  return sum;
}

export async function runSteadyUse(o: SteadyOptions): Promise<SteadyMeasurement> {
  const database = await createDatabase(o.pgAdminUrl, 'portal_bench_steady');
  const db = new pg.Client({ connectionString: database.url });
  const portals: Tracked[] = [];
  try {
    const secrets = {
      WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
      AUTH_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      METRICS_TOKEN: randomBytes(24).toString('hex'),
    };
    const urls = o.ports.map((p) => `http://127.0.0.1:${p}`);
    // One after the other: the first applies the migrations.
    for (const [i, port] of o.ports.entries()) {
      o.step(`(l) starting portal instance ${i + 1} on ${urls[i]} (next start, PostgreSQL ${database.name})`);
      const portal = startProcess(`steady-portal-${port}`, o.node, ['node_modules/next/dist/bin/next', 'start', '--port', String(port), '--hostname', '127.0.0.1'], {
        cwd: o.root,
        env: {
          ...process.env,
          NODE_ENV: 'production',
          PORTAL_URL: urls[i],
          DATABASE_URL: database.url,
          DATA_DIR: path.join(o.tmp, `steady-portal-${port}`),
          LOG_LEVEL: 'info',
          ...sandboxServiceEnv(o.sandboxUrl, o.fixtures),
          MIRROR_FRESHNESS_S: String(o.freshnessS),
          ...(o.budgetOverride !== undefined ? { MIRROR_REQUEST_BUDGET_PER_HOUR: String(o.budgetOverride) } : {}),
          RECONCILE_AFTER_S: '86400',
          ...secrets,
        },
        logFile: path.join(o.tmp, `steady-portal-${port}.log`),
      });
      portals.push(portal);
      const deadline = Date.now() + 120_000;
      for (;;) {
        if (portal.child.exitCode !== null) throw new Error(`portal ${port} exited: ${portal.output().slice(-2000)}`);
        if (await fetch(`${urls[i]}/api/health`).then((r) => r.ok, () => false)) break;
        if (Date.now() > deadline) throw new Error(`portal ${port} did not answer /api/health`);
        await sleep(300);
      }
    }

    // An admin connects the system; the managers are assigned to it.
    await db.connect();
    const password = `pw-${randomUUID()}`;
    const hash = await bcrypt.hash(password, 10);
    const adminEmail = `steady-admin-${randomUUID().slice(0, 8)}@example.com`;
    await db.query(`INSERT INTO users (email, name, role, password_hash) VALUES ($1, 'Steady Admin', 'admin', $2)`, [adminEmail, hash]);
    const admin = new PortalSession(urls[0]!);
    await admin.signIn(adminEmail, password);
    await admin.json('/api/admin/systems', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ approvalId: o.approvalId }) });
    const managers: PortalSession[] = [];
    for (let i = 0; i < o.managers; i += 1) {
      const email = `steady-manager-${i}-${randomUUID().slice(0, 8)}@example.com`;
      const { rows } = await db.query<{ id: string }>(`INSERT INTO users (email, name, role, password_hash) VALUES ($1, $2, 'manager', $3) RETURNING id`, [email, `Manager ${i + 1}`, hash]);
      await db.query(`INSERT INTO manager_systems (user_id, device_id) VALUES ($1, $2)`, [rows[0]!.id, o.deviceId]);
      const session = new PortalSession(urls[i % urls.length]!);
      await session.signIn(email, password);
      managers.push(session);
    }

    const week = weekKeyOf(new Date(), 'Europe/Stockholm');
    const weekPath = (resourceId: string, key = week) => `/api/systems/${o.deviceId}/resources/${resourceId}/week?week=${key}`;
    const stats = () => json<SandboxStats>(`${o.sandboxUrl}/_sandbox/stats`);
    const resetStats = () => fetch(`${o.sandboxUrl}/_sandbox/stats`, { method: 'DELETE' });

    // The first load, alone: what one full re-page of this system costs.
    o.step('(l) first load of the system on the new database (one full re-page)');
    await resetStats();
    const coldStart = performance.now();
    for (;;) {
      const view = await managers[0]!.json<WeekResponse>(weekPath(o.resourceIds[0]!));
      if (view.freshness.status === 'ready') break;
      if (performance.now() - coldStart > 600_000) throw new Error('the first load took over 10 minutes');
      await sleep(200);
    }
    const coldMs = performance.now() - coldStart;
    // The refresh may still be writing its last page when the first view is ready.
    await sleep(1_000);
    await settle(stats);
    const cold = (await stats()).byDevice[o.deviceId];
    const coldLoad = { ms: round(coldMs), requests: cold?.requests ?? 0, reservationPages: cold?.byRoute[RESERVATIONS]?.requests ?? 0 };

    // Steady use: every manager views a random room's week (now and then the next week) every few seconds.
    o.step(`(l) steady use: ${o.managers} managers on ${urls.length} instances for ${o.minutes} min, a view every ${o.thinkMs[0] / 1000}–${o.thinkMs[1] / 1000} s each`);
    const budget = o.budgetOverride ?? o.budgetPerHour;
    let startTokens = budget > 0 ? budget / 4 : 0; // BUDGET_BUCKET_HOURS (lib/mirror/policy.ts): as charged by the first load below
    if (budget > 0) {
      if (o.emptyBucket !== false) {
        // Steady use after its first hour: the bucket spent. Written where the policy keeps it
        // (mirror_state, lib/mirror/store.ts); the instances read it at every view.
        const emptied = await db.query(`UPDATE mirror_state SET budget_tokens = 0, budget_at = now() WHERE device_id = $1`, [o.deviceId]);
        if (emptied.rowCount !== 1) throw new Error('the system has no mirror state to empty the bucket of');
        startTokens = 0;
      } else {
        startTokens = Math.max(0, startTokens - coldLoad.requests);
      }
    }
    await resetStats();
    const started = Date.now();
    const deadline = started + o.minutes * 60_000;
    const latencies: number[] = [];
    const views = { count: 0, errors: 0, deferredByBudget: 0, refreshing: 0, lastNextRefreshAt: null as string | null };
    const nextWeek = weekKeyOf(new Date(Date.now() + 7 * 86_400_000), 'Europe/Stockholm');
    const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
    // When the re-pages start: the first pages of the reservations list, sampled every SAMPLE_S.
    const rePageStartsS: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      let seen = 0;
      while (sampling) {
        await sleep(SAMPLE_S * 1000);
        const firstPages = (await stats().catch(() => undefined))?.byDevice[o.deviceId]?.byRoute[RESERVATIONS]?.firstPages ?? seen;
        for (; seen < firstPages; seen += 1) rePageStartsS.push(round((Date.now() - started) / 1000, 0));
      }
    })();
    await Promise.all(
      managers.map(async (session) => {
        // Staggered, as people are.
        await sleep(Math.random() * o.thinkMs[1]);
        while (Date.now() < deadline) {
          const t = performance.now();
          try {
            const view = await session.json<WeekResponse>(weekPath(pick(o.resourceIds), Math.random() < 0.2 ? nextWeek : week));
            latencies.push(performance.now() - t);
            views.count += 1;
            if (view.freshness.deferredBy === 'budget') {
              views.deferredByBudget += 1;
              views.lastNextRefreshAt = view.freshness.nextRefreshAt ?? null;
            }
            if (view.freshness.refreshing) views.refreshing += 1;
          } catch {
            views.errors += 1;
          }
          await sleep(o.thinkMs[0] + Math.random() * (o.thinkMs[1] - o.thinkMs[0]));
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    // A re-read started in the window and still running counts whole: its cost was reserved from
    // the bucket at its start. No view starts another meanwhile.
    const settleStarted = Date.now();
    await settle(stats);
    const settleS = (Date.now() - settleStarted) / 1000;
    sampling = false;
    await sampler;
    const counted = await stats();
    const device = counted.byDevice[o.deviceId];
    const requests = device?.requests ?? 0;
    const rePages = device?.byRoute[RESERVATIONS]?.firstPages ?? 0;
    // A start the sampler had no turn to see (at the window's very end) still counts.
    for (let seen = rePageStartsS.length; seen < rePages; seen += 1) rePageStartsS.push(round(seconds, 0));
    const windowS = o.freshnessS;
    const cost = coldLoad.requests;
    const verdict = evaluateSteady({
      seconds,
      costPerReRead: cost,
      refreshS: coldMs / 1000,
      budgetPerHour: budget,
      freshnessS: windowS,
      startTokens,
      requests,
      reReadStartsS: rePageStartsS,
      sampleS: SAMPLE_S,
    });
    const [portalCounted, budgetTokensAtEnd] = await Promise.all([
      scrape(urls, secrets.METRICS_TOKEN, 'portal_mirror_refresh_requests_total', o.deviceId),
      scrape(urls.slice(0, 1), secrets.METRICS_TOKEN, 'portal_mirror_request_budget_tokens', o.deviceId),
    ]);
    return {
      instances: urls.length,
      managers: o.managers,
      coldLoad,
      window: { seconds: round(seconds), requests, rePages, byRoute: device?.byRoute ?? {} },
      budgetPerHour: budget,
      startTokens: round(startTokens, 0),
      requestsPerHour: round((requests * 3600) / seconds, 0),
      verdict,
      settleS: round(settleS),
      unboundedPerHour: round((cost * 3600) / (windowS + coldMs / 1000), 0),
      views: { ...views, p50Ms: round(percentile(latencies, 50), 1), p95Ms: round(percentile(latencies, 95), 1) },
      portalCounted,
      budgetTokensAtEnd,
      rePageStartsS,
    };
  } finally {
    await db.end().catch(() => undefined);
    for (const portal of portals) await stopProcess(portal);
    await dropDatabases();
  }
}
