// npm run bench — the performance benchmark of issue 8. Builds the portal, starts the standalone
// sandbox (preset `large`, injected latency) and the portal in production mode against it, then
// measures side by side: cold and warm week grid against the paging floor and a naive
// pass-through, resident-lookup proxy overhead, webhook-to-browser latency over SSE, the 12-month
// bookings CSV export (rows/s, RSS growth), the building view's page HTML (all rooms' week and
// day, beside one room's week page) and its first-load JS, Lighthouse
// and first-load JS of the grid page, and the portal's peak RSS; then (l) steady use on two
// instances on PostgreSQL, counting the upstream requests the mirror's refreshes cost
// (scripts/bench/steady.ts). Prints a table, writes bench/results.json (bench/tmp/results.json
// when --phases leaves a phase out). Every process it starts is stopped by its id, also on failure.
// Options: --skip-build, --portal-port 3200, --sandbox-port 4030, --latency 30, --clients 200,
//          --outcomes 1000, --naive-runs 3, --warm-requests 200, --lookups 100, --next-free-requests 200,
//          --building-requests 30, --phases a,b,c,g,h,i,j,k,d,e,l (the default `all`; the portal phases
//          as a prefix of that order, e.g. `--phases a` stops after the cold load, and `l` for steady use;
//          the peak RSS (f) is always reported), --steady-minutes 10 (fractions too), --steady-managers 10,
//          --steady-ports 3201,3202, --pg-url postgres://postgres@127.0.0.1:5432,
//          --steady-budget N (MIRROR_REQUEST_BUDGET_PER_HOUR of the steady instances; default scaled so that
//          --steady-rereads 4 budget-bound re-reads fit the window, scripts/bench/steady-target.ts)
//          phase m (freshness, scripts/bench/freshness.ts): --fresh-port 3203, --fresh-sandbox-port 4031,
//          --fresh-viewed-minutes 20
//          phase n (portfolio, scripts/bench/portfolio.ts; `--phases n` alone writes bench/portfolio-results.json):
//          --portfolio-systems 1000, --portfolio-streams 2000, --portfolio-stream-minutes 2, --portfolio-outcomes 120,
//          --portfolio-load-minutes 20, --portfolio-port 3204, --portfolio-sandbox-port 4032,
//          --portfolio-node-options="--heap-prof --heap-prof-dir=bench/tmp/heap" (with "=": the portal's NODE_OPTIONS, to profile it)
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { cpus, loadavg, totalmem } from 'node:os';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { weekKeyOf } from '@/lib/schedule';
import { PortalSession, percentile, round, sleep, timed, timedGet } from './bench/http';
import { firstLoadJs, runLighthouse, type LighthouseResult } from './bench/lighthouse';
import { processTree, runToEnd, sampleRss, startProcess, stopAll, stopChildrenOnSignals, stopProcess, type RssSampler, type Tracked } from './bench/proc';
import { openSseClient, sendOutcomes, type SseClient } from './bench/sse';
import type { SandboxFixtures } from '@/sandbox';
import { DirectClient, measurePageRoundTrips, naiveWeek, type Collection } from './bench/upstream';
import { compareFigure, currentCommit, readCommittedResults } from './bench/previous';
import type { BenchFigure } from './bench/figure';
import { measurePairs, overheadMet, pairedOverhead } from './bench/paired';
import { LoadMonitor, RUN, describeLoad, figureContended, withLoad, type PhaseLoad } from './bench/load';
import { runSteadyUse } from './bench/steady';
import { LARGE_REREAD_REQUESTS, scaledBudget, steadyFigures } from './bench/steady-target';
import { runFreshnessPhase } from './bench/freshness';
import { runPortfolioPhase } from './bench/portfolio';
import { ServerTimings } from './bench/server-timings';
import { sandboxServiceEnv } from './harness/processes';

const { values: args } = parseArgs({
  options: {
    'skip-build': { type: 'boolean', default: false },
    'portal-port': { type: 'string', default: '3200' },
    'sandbox-port': { type: 'string', default: '4030' },
    latency: { type: 'string', default: '30' },
    clients: { type: 'string', default: '200' },
    outcomes: { type: 'string', default: '1000' },
    'naive-runs': { type: 'string', default: '3' },
    'warm-requests': { type: 'string', default: '200' },
    lookups: { type: 'string', default: '100' },
    searches: { type: 'string', default: '200' },
    'next-free-requests': { type: 'string', default: '200' },
    'report-requests': { type: 'string', default: '20' },
    'building-requests': { type: 'string', default: '30' },
    chrome: { type: 'string', default: '/usr/bin/chromium' },
    phases: { type: 'string', default: 'all' },
    'steady-minutes': { type: 'string', default: '10' },
    'steady-managers': { type: 'string', default: '10' },
    'steady-ports': { type: 'string', default: '3201,3202' },
    'steady-budget': { type: 'string' },
    'steady-rereads': { type: 'string', default: '4' },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432' },
    // (m) freshness: its portal's port, the small system's sandbox port, the longest viewed wait.
    'fresh-port': { type: 'string', default: '3203' },
    'fresh-sandbox-port': { type: 'string', default: '4031' },
    'fresh-viewed-minutes': { type: 'string', default: '20' },
    // (n) portfolio (scripts/bench/portfolio.ts): its ports, the preset's size, the live streams.
    'portfolio-port': { type: 'string', default: '3204' },
    'portfolio-sandbox-port': { type: 'string', default: '4032' },
    'portfolio-systems': { type: 'string', default: '1000' },
    'portfolio-streams': { type: 'string', default: '2000' },
    'portfolio-stream-minutes': { type: 'string', default: '2' },
    'portfolio-outcomes': { type: 'string', default: '120' },
    'portfolio-load-minutes': { type: 'string', default: '20' },
    'portfolio-node-options': { type: 'string', default: '' },
    // The PGlite portal's JavaScript heap limit (MB); unset: Node's default (docs/benchmark.md, (f)).
    'portal-heap-mb': { type: 'string' },
  },
});
const int = (name: keyof typeof args) => {
  const v = Number(args[name]);
  if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} must be a non-negative integer`);
  return v;
};
const PORTAL_PORT = int('portal-port');
const SANDBOX_PORT = int('sandbox-port');
const LATENCY_MS = int('latency');
const SSE_CLIENTS = int('clients');
// The portal's STREAMS_PER_SESSION (lib/events/open-streams.ts; a server-only module, so not imported).
const SSE_STREAMS_PER_SESSION = 10;
const OUTCOMES = int('outcomes');
const NAIVE_RUNS = Math.max(1, int('naive-runs'));
const WARM_REQUESTS = int('warm-requests');
const LOOKUPS = int('lookups');
const SEARCHES = Math.max(1, int('searches'));
const NEXT_FREE_REQUESTS = Math.max(1, int('next-free-requests'));
const REPORT_REQUESTS = Math.max(1, int('report-requests'));
const PORTAL_HEAP_MB = args['portal-heap-mb'] === undefined ? null : Math.max(64, int('portal-heap-mb'));
const BUILDING_REQUESTS = Math.max(1, int('building-requests'));
const CHROME = String(args.chrome);
// The portal's phases (one PGlite portal) in the order they run, then (l) steady use on two
// instances on PostgreSQL. --phases names a prefix of the portal's (they build on each other: the
// run stops after the last named) and, or only, `l`.
const PHASE_ORDER = ['a', 'b', 'c', 'g', 'h', 'i', 'j', 'k', 'd', 'e'] as const;
type Phase = (typeof PHASE_ORDER)[number];
const ASKED = args.phases === 'all' ? [...PHASE_ORDER, 'l', 'm', 'n'] : String(args.phases).split(',').map((p) => p.trim().replace(/[()]/g, ''));
const STEADY = ASKED.includes('l');
/** (m) freshness: how soon a booking made outside the portal shows (scripts/bench/freshness.ts). */
const FRESHNESS = ASKED.includes('m');
/** (n) portfolio: a thousand systems on their own sandbox and portal (scripts/bench/portfolio.ts). */
const PORTFOLIO = ASKED.includes('n');
const PHASES: readonly Phase[] = (() => {
  const asked = ASKED.filter((p) => p !== 'l' && p !== 'm' && p !== 'n');
  const prefix = PHASE_ORDER.slice(0, asked.length);
  if (asked.some((p, i) => p !== prefix[i]) || (asked.length === 0 && !STEADY && !FRESHNESS && !PORTFOLIO)) {
    throw new Error(`--phases takes a prefix of ${PHASE_ORDER.join(',')} (phases build on each other) and/or l`);
  }
  return prefix;
})();
const ALL_PHASES = PHASES.length === PHASE_ORDER.length && STEADY && FRESHNESS && PORTFOLIO;
/** Only (n): its figures are committed on their own (bench/portfolio-results.json), as they need no other phase. */
const PORTFOLIO_ONLY = PORTFOLIO && PHASES.length === 0 && !STEADY && !FRESHNESS;
/** The last portal phase asked for: the portal's part stops after it. */
const lastPhase = (phase: Phase) => PHASES[PHASES.length - 1] === phase;
const STEADY_MINUTES = Number(args['steady-minutes']);
if (!(STEADY_MINUTES > 0)) throw new Error('--steady-minutes must be a positive number (fractions allowed)');
const STEADY_MANAGERS = Math.max(1, int('steady-managers'));
const STEADY_PORTS = String(args['steady-ports']).split(',').map(Number) as [number, number];
if (STEADY_PORTS.length !== 2 || STEADY_PORTS.some((p) => !Number.isInteger(p) || p <= 0)) throw new Error('--steady-ports takes two ports, e.g. 3201,3202');
// (l) runs with a budget scaled to its window (the default budget allows one re-read of the large
// system every ~13 min, none in a 10-minute window), starting from an empty bucket.
const STEADY_BUDGET = args['steady-budget'] === undefined ? scaledBudget(LARGE_REREAD_REQUESTS, STEADY_MINUTES, Math.max(1, int('steady-rereads'))) : int('steady-budget');
const PG_URL = String(args['pg-url']);
/** The portal's default (lib/env.ts), used unless --steady-budget says otherwise. */
const DEFAULT_BUDGET_PER_HOUR = 2400;

const ROOT = path.resolve(import.meta.dirname, '..');
const BENCH_DIR = path.join(ROOT, 'bench');
const TMP = path.join(BENCH_DIR, 'tmp');
const PORTAL = `http://127.0.0.1:${PORTAL_PORT}`;
const SANDBOX = `http://127.0.0.1:${SANDBOX_PORT}`;
const NODE = process.execPath;
const FRESHNESS_S = 30;
// The run committed at HEAD, printed beside this one (bench/results.json is committed).
const PREVIOUS = readCommittedResults(ROOT);

// ---------------------------------------------------------------- results

interface Figure extends BenchFigure {
  /** The phases the figure rests on (default: the one running when it is recorded; scripts/bench/load.ts). */
  phases?: string[];
  /** Whether the machine's 1-minute load went above its core count in one of them (set at the end). */
  contended?: boolean;
}
const figures: Figure[] = [];
const details: Record<string, unknown> = {};
// The load average per phase: a figure of a contended phase is marked so and never compared.
const load = new LoadMonitor();
const phasesNow = () => (load.current ? [load.current] : [RUN]);
function figure(...fs: Figure[]) {
  figures.push(...fs.map((f) => ({ ...f, phases: f.phases ?? phasesNow() })));
}
function notMeasured(key: string, label: string, target: string, reason: string) {
  figures.push({ key, label, value: null, unit: '', target, met: null, note: `not measured: ${reason}`, phases: phasesNow() });
}
const step = (message: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 300);

// ---------------------------------------------------------------- portal API shapes (CONTRACTS.md §3)

type Freshness =
  | { status: 'loading'; pagesFetched: number; partial?: { reservationsRead: number; reservationsExpected: number | null } | null }
  | { status: 'ready'; refreshedAt: string; refreshing: boolean; lastError: string | null };
interface WeekResponse {
  freshness: Freshness;
  resource?: { id: string } | null;
  slots?: unknown[];
}
const weekPath = (deviceId: string, resourceId: string, week: string) => `/api/systems/${deviceId}/resources/${resourceId}/week?week=${week}`;

/** Replaces the bench sandbox's injected faults (its latency is one of them). */
async function setSandboxFaults(faults: Record<string, unknown>): Promise<void> {
  const r = await fetch(`${SANDBOX}/_sandbox/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) });
  if (!r.ok) throw new Error(`the sandbox refused the faults (${r.status}): ${(await r.text()).slice(0, 200)}`);
}

/** An error that ends a wait at once (retrying cannot help). */
class FatalError extends Error {}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, intervalMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      if (e instanceof FatalError) throw e;
      last = e;
    }
    await sleep(intervalMs);
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (${errorText(last)})` : ''}`);
}

/**
 * Waits until no mirror refresh is running, so that the next measurement does not compete with
 * one. Polling cannot start one: a refresh is due only a freshness window after the last ended.
 */
async function waitIdle(session: PortalSession, path: string): Promise<void> {
  await waitFor('the mirror refresh to finish', 300_000, async () => {
    const r = await session.json<WeekResponse>(path);
    return r.freshness.status === 'ready' && !r.freshness.refreshing ? true : undefined;
  }, 500);
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  stopChildrenOnSignals();
  await rm(TMP, { recursive: true, force: true });
  await mkdir(TMP, { recursive: true });
  details.machine = { loadAverageAtStart: loadavg().map((v) => round(v, 2)), cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGb: round(totalmem() / 2 ** 30), node: process.version };
  details.config = { phases: [...PHASES, ...(STEADY ? ['l'] : [])], latencyMs: LATENCY_MS, preset: 'large', sseClients: SSE_CLIENTS, outcomes: OUTCOMES, naiveRuns: NAIVE_RUNS, warmRequests: WARM_REQUESTS, lookups: LOOKUPS, nextFreeRequests: NEXT_FREE_REQUESTS, freshnessS: FRESHNESS_S, database: 'pglite', steadyMinutes: STEADY_MINUTES, steadyManagers: STEADY_MANAGERS, steadyBudgetPerHour: STEADY_BUDGET, portalHeapMb: PORTAL_HEAP_MB };

  if (!args['skip-build']) {
    step('building the portal (next build)');
    const build = await timed(() => runToEnd('next build', NODE, ['node_modules/next/dist/bin/next', 'build'], { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production' }, logFile: path.join(TMP, 'build.log') }));
    details.buildSeconds = round(build.ms / 1000);
  }

  if (PORTFOLIO_ONLY) return portfolioPhase();
  step(`starting the sandbox on ${SANDBOX} (preset large, ${LATENCY_MS} ms latency)`);
  const sandbox = startProcess('sandbox', NODE, ['node_modules/tsx/dist/cli.mjs', 'sandbox/server.ts', '--port', String(SANDBOX_PORT), '--preset', 'large', '--latency', String(LATENCY_MS), '--data-dir', path.join(TMP, 'sandbox')], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '' },
    logFile: path.join(TMP, 'sandbox.log'),
  });
  await waitFor('the sandbox', 300_000, () => {
    if (sandbox.child.exitCode !== null) throw new FatalError(`sandbox exited: ${sandbox.output().slice(-2000)}`);
    return Promise.resolve(/ready in/.test(sandbox.output()) ? true : undefined);
  }, 500);
  const fixtures = (await (await fetch(`${SANDBOX}/_sandbox/fixtures`)).json()) as SandboxFixtures;
  const approval = fixtures.approvals[0];
  const deviceId = approval?.deviceIds[0];
  if (!approval || !deviceId) throw new Error('the sandbox fixtures list no approval');
  const direct = new DirectClient(SANDBOX, fixtures);
  await direct.connect(approval.approvalId);
  const setup: Setup = { fixtures, approvalId: approval.approvalId, deviceId, direct };
  if (PHASES.length > 0) await portalPhases(setup);
  if (STEADY) await steadyPhase(setup);
  if (FRESHNESS) {
    load.phase('(m)');
    try {
      await runFreshnessPhase(
        { root: ROOT, tmp: TMP, node: NODE, pgAdminUrl: PG_URL, port: int('fresh-port'), smallSandboxPort: int('fresh-sandbox-port'), latencyMs: LATENCY_MS, freshnessS: FRESHNESS_S, budgetPerHour: DEFAULT_BUDGET_PER_HOUR, backgroundS: 3600, viewedTimeoutMs: Number(args['fresh-viewed-minutes']) * 60_000, pollMs: 3_000, step, large: { label: 'large', sandboxUrl: SANDBOX, fixtures, approvalId: approval.approvalId, deviceId } },
        { figure, details },
      );
    } finally {
      load.end();
    }
  }
  await stopProcess(sandbox);
  if (PORTFOLIO) await portfolioPhase();
}

/** (n): a portfolio of systems, on its own sandbox and portal. */
async function portfolioPhase(): Promise<void> {
  load.phase('(n)');
  try {
    await runPortfolioPhase(
      {
        root: ROOT,
        tmp: TMP,
        node: NODE,
        pgAdminUrl: PG_URL,
        port: int('portfolio-port'),
        sandboxPort: int('portfolio-sandbox-port'),
        latencyMs: LATENCY_MS,
        systems: Math.max(1, int('portfolio-systems')),
        streams: int('portfolio-streams'),
        streamsPerSession: SSE_STREAMS_PER_SESSION,
        streamMs: Number(args['portfolio-stream-minutes']) * 60_000,
        outcomes: Math.max(1, int('portfolio-outcomes')),
        loadTimeoutMs: Number(args['portfolio-load-minutes']) * 60_000,
        nodeOptions: args['portfolio-node-options'] || undefined,
        searches: SEARCHES,
        step,
      },
      { figure, details },
    );
  } finally {
    load.end();
  }
}

/** What every phase needs: the bench sandbox's fixtures, the large system and a direct client. */
interface Setup {
  fixtures: SandboxFixtures;
  approvalId: string;
  deviceId: string;
  direct: DirectClient;
}

/** (a)–(k), (d), (e), (f): one portal on PGlite, against the naive pass-through and the upstream. */
async function portalPhases({ fixtures, deviceId, direct, approvalId }: Setup): Promise<void> {
  const approval = { approvalId };
  // (a) includes the upstream's figures and the naive runs its floor and (b)'s speed-up rest on.
  load.phase('(a)');
  // ---- upstream figures: page round trip, page counts, naive pass-through
  step('measuring the upstream page round trip');
  await measurePageRoundTrips(direct, deviceId, 5); // warm the connection
  const rtts = await measurePageRoundTrips(direct, deviceId, 50);
  const rttP50 = percentile(rtts, 50);
  details.pageRoundTripMs = { p50: round(rttP50), p95: round(percentile(rtts, 95)), n: rtts.length };

  const resources = await direct.all<{ id: string; name: string }>('resources', deviceId);
  const residents = fixtures.residents.filter((r) => r.deviceId === deviceId);
  const gridResource = residents[0]?.resourceIds[0] ?? resources.items[0]?.id;
  if (!gridResource) throw new Error('the large system has no resources');
  const timeZone = 'Europe/Stockholm'; // a newly connected system's zone (lib/systems DEFAULT_TIME_ZONE)
  const week = weekKeyOf(new Date(), timeZone);

  step(`naive pass-through: ${NAIVE_RUNS} week grid(s) computed from a full paging of the upstream`);
  const naiveMs: number[] = [];
  let pages: Record<Collection, number> | undefined;
  for (let i = 0; i < NAIVE_RUNS; i += 1) {
    const run = await timed(() => naiveWeek(direct, deviceId, gridResource, week, timeZone));
    naiveMs.push(run.ms);
    pages = run.value.pages;
    step(`  naive run ${i + 1}: ${round(run.ms / 1000, 2)} s, ${run.value.slots.length} slots`);
  }
  const totalPages = Object.values(pages!).reduce((a, b) => a + b, 0);
  // The round trip of the floor: the median of every page request the naive runs made (the same
  // requests the mirror makes, hundreds of samples); the short probe above is kept as a detail.
  const pageRtt = percentile(direct.pageTimes, 50);
  details.pageRoundTripMs = { ...(details.pageRoundTripMs as object), naiveP50: round(pageRtt), naiveP95: round(percentile(direct.pageTimes, 95)), naiveSamples: direct.pageTimes.length };
  const floorMs = totalPages * pageRtt;
  details.pages = { ...pages, total: totalPages };
  details.naiveMs = naiveMs.map((v) => round(v));

  // ---- the portal's database: admin account and pending requests for the webhook measurement
  step('preparing the portal database (migrations, admin account, pending requests)');
  const adminEmail = 'bench-admin@example.com';
  const adminPassword = randomBytes(18).toString('base64url');
  // (d)'s browsers: the portal ends a session's streams beyond STREAMS_PER_SESSION (10) and a user's
  // beyond STREAMS_PER_USER (30) (lib/events/open-streams.ts, issue 33), so 200 clients on one
  // session measured 10 and missed the rest. Each viewer account holds one session of 10 streams,
  // as 20 managers with ten tabs each would.
  const viewers = Array.from({ length: Math.ceil(SSE_CLIENTS / SSE_STREAMS_PER_SESSION) }, (_, i) => ({ email: `bench-viewer-${i + 1}@example.com`, password: adminPassword }));
  const targetResidents = residents.filter((r) => r.resourceIds.length > 0);
  const pending = Array.from({ length: OUTCOMES }, (_, i) => {
    const resident = targetResidents[i % Math.max(1, targetResidents.length)];
    const start = new Date(Date.now() + (i + 1) * 3_600_000);
    return {
      id: randomUUID(),
      correlationId: randomUUID(),
      deviceId,
      resourceId: resident?.resourceIds[0] ?? gridResource,
      residentUserId: resident?.userId ?? randomUUID(),
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 90 * 60_000).toISOString(),
    };
  });
  const portalData = path.join(TMP, 'portal');
  const portalEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORTAL_URL: PORTAL,
    DATA_DIR: portalData,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    ...sandboxServiceEnv(SANDBOX, fixtures),
    WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
    AUTH_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    MIRROR_FRESHNESS_S: String(FRESHNESS_S),
    // Where each API answer's time went (Server-Timing), printed beside (b) and (c).
    SERVER_TIMING: '1',
    // The pending requests are the benchmark's own; no reconciliation while it runs.
    RECONCILE_AFTER_S: '86400',
    ...(PORTAL_HEAP_MB ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${PORTAL_HEAP_MB}`.trim() } : {}),
  };
  await runToEnd('portal database setup', NODE, ['node_modules/tsx/dist/cli.mjs', '--conditions=react-server', 'scripts/bench/setup-db.ts'], {
    cwd: ROOT,
    env: portalEnv,
    logFile: path.join(TMP, 'setup-db.log'),
    input: JSON.stringify({ dataDir: portalData, adminEmail, adminPassword, viewers, requests: pending }),
  });
  const registered = await fetch(`${SANDBOX}/_sandbox/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${PORTAL}/api/webhooks`, secret: portalEnv.WEBHOOK_SECRET }),
  });
  if (!registered.ok) throw new Error(`registering the webhook answered ${registered.status}`);

  // ---- the portal, production mode, remote mode against the sandbox
  step(`starting the portal on ${PORTAL} (next start, production)`);
  const portal: Tracked = startProcess('portal', NODE, ['node_modules/next/dist/bin/next', 'start', '--port', String(PORTAL_PORT), '--hostname', '127.0.0.1'], {
    cwd: ROOT,
    env: portalEnv,
    logFile: path.join(TMP, 'portal.log'),
  });
  const rss: RssSampler = withLoad(sampleRss(portal.pid), load);
  await waitFor('the portal', 120_000, async () => {
    if (portal.child.exitCode !== null) throw new FatalError(`portal exited: ${portal.output().slice(-2000)}`);
    const r = await fetch(`${PORTAL}/api/health`);
    return r.ok ? true : undefined;
  }, 300);
  const session = new PortalSession(PORTAL);
  await session.signIn(adminEmail, adminPassword);
  // The measuring client's own cost: Node's fetch against the lean client the figures use, on the
  // cheapest route (a detail, so that figures from before the switch can be read beside these).
  const viaFetch: number[] = [];
  const viaLean: number[] = [];
  for (let i = 0; i < 110; i += 1) {
    const f = await timed(async () => (await fetch(`${PORTAL}/api/health`)).text());
    const l = await timedGet(`${PORTAL}/api/health`);
    if (i >= 10) {
      viaFetch.push(f.ms);
      viaLean.push(l.ms);
    }
  }
  details.measuringClient = { healthP50ViaFetch: round(percentile(viaFetch, 50), 2), healthP50ViaLeanClient: round(percentile(viaLean, 50), 2) };
  // (c) measures the portal passing searches through to the service's lookups: without the user
  // list (users/fetch is beyond the interface document) the first load reads none.
  await setSandboxFaults({ latencyMs: LATENCY_MS, failures: [{ status: 404, times: 1_000_000_000, pathPrefix: '/v1/reservations/users/fetch/' }] });
  const connected = await session.json<{ systems: { deviceId: string; timeZone: string }[] }>('/api/admin/systems', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ approvalId: approval.approvalId }),
  });
  const system = connected.systems.find((s) => s.deviceId === deviceId);
  if (system && system.timeZone !== timeZone) throw new Error(`unexpected system time zone ${system.timeZone}`);
  const gridPath = weekPath(deviceId, gridResource, week);
  let weekRouteWorks = false;

  // ---- (a) cold load
  rss.phase('(a)');
  step('(a) cold week-grid load (first-ever read of the system)');
  try {
    const progress: { atMs: number; pagesFetched: number; reservationsRead: number | null }[] = [];
    const start = performance.now();
    let polls = 0;
    // The first useful view: the week API answers with the room's slots, loading or not (issue 20:
    // a first load shows them once resources and schedules are in, the bookings still being read).
    // Set inside the polls (an object: the compiler cannot follow assignments made in a callback).
    const firstUseful: { ms: number | null; read: number | null } = { ms: null, read: null };
    // How long each poll answered in while loading (a partial week costs more than "loading").
    const pollMs: number[] = [];
    const slots = await waitFor('the first load', 300_000, async () => {
      polls += 1;
      const asked = performance.now();
      const r = await session.fetch(gridPath);
      if (r.status === 404) throw new FatalError('the week route answers 404 (not on this branch yet)');
      if (!r.ok) throw new FatalError(`the week route answered ${r.status}: ${(await r.text()).slice(0, 300)}`);
      const body = (await r.json()) as WeekResponse;
      pollMs.push(performance.now() - asked);
      if (firstUseful.ms === null && body.resource && (body.slots?.length ?? 0) > 0) {
        firstUseful.ms = performance.now() - start;
        firstUseful.read = body.freshness.status === 'loading' ? (body.freshness.partial?.reservationsRead ?? null) : null;
      }
      if (body.freshness.status === 'loading') {
        progress.push({ atMs: round(performance.now() - start, 0), pagesFetched: body.freshness.pagesFetched, reservationsRead: body.freshness.partial?.reservationsRead ?? null });
        return undefined;
      }
      return body.slots ?? [];
    }, 200);
    const coldMs = performance.now() - start;
    weekRouteWorks = true;
    const useful = firstUseful.ms ?? coldMs;
    const firstUsefulRead = firstUseful.read;
    details.cold = { ms: round(coldMs), firstUsefulViewMs: round(useful), reservationsReadAtFirstView: firstUsefulRead, polls, pollP50Ms: round(percentile(pollMs, 50), 1), pollP95Ms: round(percentile(pollMs, 95), 1), slots: slots.length, progressSamples: progress.filter((_, i) => i % 20 === 0) };
    figure({ key: 'firstUsefulViewMs', label: '(a) first useful view (room and slots)', value: round(useful / 1000, 2), unit: 's', target: '≤ 2 s', met: useful <= 2000, note: `week API with the room's slots${firstUsefulRead !== null ? `, ${firstUsefulRead} reservations read by then` : ''}; polled every 200 ms` });
    figure({ key: 'coldLoadMs', label: '    cold week-grid load, complete', value: round(coldMs / 1000, 2), unit: 's', target: `≤ 1.1 × floor = ${round((1.1 * floorMs) / 1000, 2)} s`, met: coldMs <= 1.1 * floorMs });
    figure({ key: 'coldVsFloor', label: '    ratio to paging floor', value: round(coldMs / floorMs, 2), unit: '×', target: '≤ 1.1', met: coldMs <= 1.1 * floorMs, note: `floor = ${totalPages} pages × ${round(pageRtt)} ms` });
  } catch (e) {
    notMeasured('firstUsefulViewMs', '(a) first useful view (room and slots)', '≤ 2 s', errorText(e));
    notMeasured('coldLoadMs', '    cold week-grid load, complete', `≤ 1.1 × floor (${round(floorMs / 1000, 2)} s)`, errorText(e));
  }
  figure({ key: 'pagingFloorMs', label: '    paging floor (pages × round trip)', value: round(floorMs / 1000, 2), unit: 's', target: '—', met: null, note: `${totalPages} pages × ${round(pageRtt)} ms (p50 page round trip)` });
  if (lastPhase('a')) return finish(rss, portal);

  // ---- (b) warm grid API vs the naive pass-through
  rss.phase('(b)');
  step('(b) warm week-grid API');
  const naiveP50 = percentile(naiveMs, 50);
  if (weekRouteWorks) {
    try {
      const resourceIds = resources.items.slice(0, 10).map((r) => r.id);
      const paths = resourceIds.map((id) => weekPath(deviceId, id, week));
      for (let i = 0; i < 20; i += 1) await session.timed(paths[i % paths.length]!);
      const ms: number[] = [];
      const parts = new ServerTimings();
      let duringRefresh = 0;
      for (let i = 0; i < WARM_REQUESTS; i += 1) {
        const answer = await session.timed(paths[i % paths.length]!);
        ms.push(answer.ms);
        parts.add(answer);
        const body = JSON.parse(answer.text) as WeekResponse;
        if (body.freshness.status === 'ready' && body.freshness.refreshing) duringRefresh += 1;
      }
      const p50 = percentile(ms, 50);
      const p95 = percentile(ms, 95);
      details.warm = { p50: round(p50, 2), p95: round(p95, 2), n: ms.length, duringBackgroundRefresh: duringRefresh, serverTimingP50: parts.medians() };
      figure({ key: 'warmP50', label: '(b) warm grid API p50', value: round(p50, 2), unit: 'ms', target: '≤ 5 ms', met: p50 <= 5, note: `server: ${parts.describe()}` });
      figure({ key: 'warmP95', label: '    warm grid API p95', value: round(p95, 2), unit: 'ms', target: '≤ 15 ms', met: p95 <= 15 });
      figure({ key: 'naiveP50', label: '    naive pass-through p50', value: round(naiveP50), unit: 'ms', target: '—', met: null, note: `p95 ${round(percentile(naiveMs, 95))} ms, n=${naiveMs.length}`, phases: ['(a)'] });
      figure({ key: 'warmSpeedup', label: '    speed-up over naive (p50)', value: round(naiveP50 / p50, 0), unit: '×', target: '≥ 100 ×', met: naiveP50 / p50 >= 100, phases: ['(a)', '(b)'] });
    } catch (e) {
      notMeasured('warmP50', '(b) warm grid API p50', '≤ 5 ms, p95 ≤ 15 ms, ≥ 100 × naive', errorText(e));
    }
  } else {
    notMeasured('warmP50', '(b) warm grid API p50', '≤ 5 ms, p95 ≤ 15 ms, ≥ 100 × naive', 'the week route is not available');
    figure({ key: 'naiveP50', label: '    naive pass-through p50', value: round(naiveP50), unit: 'ms', target: '—', met: null, phases: ['(a)'] });
  }

  if (lastPhase('b')) return finish(rss, portal);

  // ---- (c) resident lookup through the portal vs directly. The system's user list is held back
  // (users/fetch answers 404, as on a service with only the interface document's endpoints), so
  // every search asks the service's lookups: the portal's cost over calling them directly.
  rss.phase('(c)');
  step('(c) resident lookup: portal (passing through to the lookups) vs direct');
  try {
    if (weekRouteWorks) await waitIdle(session, gridPath);
    const queries = residents.slice(0, 20).map((r) => r.apartmentId);
    if (queries.length === 0) throw new Error('no sample residents in the fixtures');
    const probe = await session.fetch(`/api/residents?q=${encodeURIComponent(queries[0]!)}`);
    if (probe.status === 404) throw new Error('GET /api/residents answers 404 (not on this branch yet)');
    await probe.text();
    // Pairs: the two lookups a query without "@" may mean, directly in parallel as the portal asks
    // them, then the same query through the portal (scripts/bench/paired.ts).
    const parts = new ServerTimings();
    let warmed = 0;
    const pairs = await measurePairs(
      LOOKUPS,
      10,
      (i) => queries[i % queries.length]!,
      async (q) => (await timed(() => Promise.all([direct.timed(`/v1/reservations/users/apartment/${encodeURIComponent(q)}`), direct.timed(`/v1/reservations/users/reference/${encodeURIComponent(q)}`)]))).ms,
      async (q) => {
        const p = await session.timed(`/api/residents?q=${encodeURIComponent(q)}`);
        if ((warmed += 1) > 10) parts.add(p);
        return p.ms;
      },
    );
    if (!parts.has('upstream')) throw new Error('the portal answered from its own directory: the user list was not held back');
    const o = pairedOverhead(pairs);
    details.lookup = { pairedMedian: round(o.medianMs, 2), pairedP25: round(o.p25Ms, 2), pairedP75: round(o.p75Ms, 2), portalP50: round(o.portalMedianMs, 2), directP50: round(o.directMedianMs, 2), differenceOfMedians: round(o.differenceOfMediansMs, 2), n: o.n, serverTimingP50: parts.medians() };
    figure({ key: 'lookupOverheadPairedMedian', label: '(c) resident lookup overhead, median of paired differences', value: round(o.medianMs, 2), unit: 'ms', target: '≤ 5 ms', met: overheadMet(o), note: `${o.n} pairs (direct, then portal), differences p25 ${round(o.p25Ms, 1)} / p75 ${round(o.p75Ms, 1)} ms; portal ${round(o.portalMedianMs, 1)} ms vs direct ${round(o.directMedianMs, 1)} ms; server: ${parts.describe()}` });
  } catch (e) {
    notMeasured('lookupOverheadPairedMedian', '(c) resident lookup overhead, median of paired differences', '≤ 5 ms', errorText(e));
  }
  // The user list back for (g): the fault lifted, the system re-read at once. A closure's preview
  // refreshes the mirror before it lists what a closure would cancel (past the window and the
  // budget: lib/mirror/policy.ts), as a manager's would.
  await setSandboxFaults({ latencyMs: LATENCY_MS });
  if (!lastPhase('c')) {
    step('    re-reading the system with its user list (a closure preview refreshes first)');
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    await session.json(`/api/systems/${deviceId}/closures/preview`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ resourceIds: [gridResource], from: `${day}T10:00`, to: `${day}T11:00`, reason: 'bench' }),
    });
  }

  if (lastPhase('c')) return finish(rss, portal);

  // ---- (g) search as you type over the mirrored user list (lib/residents/directory.ts)
  rss.phase('(g)');
  step(`(g) resident search: ${SEARCHES} warm requests over a mix of queries`);
  try {
    const queries = residentSearchQueries(residents);
    // Warm: the first searches build the directory of the generation.
    for (const q of queries.slice(0, 10)) await session.json(`/api/residents?q=${encodeURIComponent(q)}`);
    const ms: number[] = [];
    let found = 0;
    for (let i = 0; i < SEARCHES; i += 1) {
      const q = queries[i % queries.length]!;
      const r = await session.timed(`/api/residents?q=${encodeURIComponent(q)}`);
      ms.push(r.ms);
      if ((JSON.parse(r.text) as { apartments: unknown[] }).apartments.length > 0) found += 1;
    }
    const p50 = percentile(ms, 50);
    const p95 = percentile(ms, 95);
    details.residentSearch = { p50: round(p50, 2), p95: round(p95, 2), n: ms.length, queries: queries.length, withResults: found };
    figure({ key: 'residentSearchP95', label: '(g) resident search API p95', value: round(p95, 2), unit: 'ms', target: '≤ 30 ms', met: p95 <= 30, note: `p50 ${round(p50, 2)} ms, n=${ms.length}, ${found} with results` });
  } catch (e) {
    notMeasured('residentSearchP95', '(g) resident search API p95', '≤ 30 ms', errorText(e));
  }

  if (lastPhase('g')) return finish(rss, portal);

  // ---- (h) the apartment desk's next free slot (lib/views/apartment.ts), warm
  rss.phase('(h)');
  step(`(h) next free slot: ${NEXT_FREE_REQUESTS} warm requests for apartments of the large system`);
  try {
    const groupIds = [...new Set(residents.filter((r) => r.resourceIds.length > 0).map((r) => r.userGroupId))].slice(0, 10);
    if (groupIds.length === 0) throw new Error('no sample apartments in the fixtures');
    const paths = groupIds.map((g, i) => `/api/systems/${deviceId}/apartments/${g}/next-free${i % 3 === 1 ? '?dayPart=evening' : i % 3 === 2 ? '?kind=laundry&count=10' : ''}`);
    const probe = await session.fetch(paths[0]!);
    if (probe.status === 404) throw new Error('GET …/apartments/{groupId}/next-free answers 404 (not on this branch yet)');
    await probe.text();
    for (let i = 0; i < 20; i += 1) await session.json(paths[i % paths.length]!);
    const ms: number[] = [];
    for (let i = 0; i < NEXT_FREE_REQUESTS; i += 1) ms.push((await session.timed(paths[i % paths.length]!)).ms);
    const p95 = percentile(ms, 95);
    details.nextFree = { p50: round(percentile(ms, 50), 2), p95: round(p95, 2), n: ms.length, apartments: groupIds.length };
    figure({ key: 'nextFreeP95', label: '(h) next free slot API p95 (warm)', value: round(p95, 2), unit: 'ms', target: '≤ 50 ms', met: p95 <= 50, note: `p50 ${round(percentile(ms, 50), 1)} ms, n=${ms.length}` });
  } catch (e) {
    notMeasured('nextFreeP95', '(h) next free slot API p95 (warm)', '≤ 50 ms', errorText(e));
  }

  if (lastPhase('h')) return finish(rss, portal);

  // ---- (i) a 12-month report of the large system (lib/reports/load.ts): cold, then warm
  rss.phase('(i)');
  step(`(i) 12-month report: the first computation, then ${REPORT_REQUESTS} warm requests`);
  try {
    const reportPath = `/api/systems/${deviceId}/reports?period=last-12-months`;
    const cold = await timed(() => session.json<{ report: { total: { counts: { bookings: number } } } }>(reportPath));
    const ms: number[] = [];
    for (let i = 0; i < REPORT_REQUESTS; i += 1) ms.push((await session.timed(reportPath)).ms);
    const p95 = percentile(ms, 95);
    const bookings = cold.value.report.total.counts.bookings;
    details.report = { coldMs: round(cold.ms, 1), warmP50: round(percentile(ms, 50), 2), warmP95: round(p95, 2), n: ms.length, bookings };
    figure({ key: 'reportColdMs', label: '(i) 12-month report, cold', value: round(cold.ms / 1000, 2), unit: 's', target: '≤ 2 s', met: cold.ms <= 2000, note: `${bookings} bookings in the period` });
    figure({ key: 'reportWarmP95', label: '    12-month report, warm p95', value: round(p95, 2), unit: 'ms', target: '≤ 300 ms', met: p95 <= 300, note: `p50 ${round(percentile(ms, 50), 1)} ms, n=${ms.length}` });
  } catch (e) {
    notMeasured('reportColdMs', '(i) 12-month report, cold', '≤ 2 s', errorText(e));
    notMeasured('reportWarmP95', '    12-month report, warm p95', '≤ 300 ms', errorText(e));
  }

  if (lastPhase('i')) return finish(rss, portal);

  // ---- (j) the bookings export (lib/exports): a 12-month CSV of every booking, streamed over HTTP
  rss.phase('(j)');
  step('(j) bookings export: a 12-month CSV of all bookings of the large system, streamed');
  try {
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    // The large preset's bookings lie 56 days back to 21 ahead: a 12-month period around them holds all.
    const exportPath = `/api/systems/${deviceId}/exports/bookings.csv?from=${day(Date.now() - 335 * 86_400_000)}&to=${day(Date.now() + 29 * 86_400_000)}`;
    const runs: { rows: number; bytes: number; ms: number; rssGrowthMb: number }[] = [];
    for (let i = 0; i < 2; i += 1) runs.push(await streamExport(session, exportPath, portal.pid));
    const [first, warm] = [runs[0]!, runs[1]!];
    if (warm.rows === 0) throw new Error('the export had no rows');
    const rowsPerSecond = warm.rows / (warm.ms / 1000);
    const growth = Math.max(first.rssGrowthMb, warm.rssGrowthMb);
    details.bookingsExport = { runs: runs.map((r) => ({ rows: r.rows, megabytes: round(r.bytes / 2 ** 20, 1), ms: round(r.ms), rssGrowthMb: round(r.rssGrowthMb, 1) })) };
    figure({ key: 'exportRowsPerSecond', label: '(j) 12-month bookings CSV, streamed', value: round(rowsPerSecond / 1000, 1), unit: 'k rows/s', target: '≥ 50 k rows/s', met: rowsPerSecond >= 50_000, note: `${warm.rows} rows, ${round(warm.bytes / 2 ** 20, 1)} MB in ${round(warm.ms)} ms (second run; first ${round(first.ms)} ms)` });
    figure({ key: 'exportRssGrowthMb', label: '    peak RSS growth during the export', value: round(growth, 1), unit: 'MB', target: '≤ 50 MB', met: growth <= 50, note: 'portal process tree, sampled every 25 ms, the larger of two runs' });
  } catch (e) {
    notMeasured('exportRowsPerSecond', '(j) 12-month bookings CSV, streamed', '≥ 50 k rows/s; RSS growth ≤ 50 MB', errorText(e));
  }

  if (lastPhase('j')) return finish(rss, portal);

  // ---- (k) the building view (lib/views/building.ts): every room's day and week as page HTML, warm,
  // in both modes (counts and free slots; with ?show=apartments each held slot's apartment too),
  // beside one room's week page; and the building page's first-load JS
  rss.phase('(k)');
  step(`(k) building view: ${BUILDING_REQUESTS} warm page loads each of all rooms' week (both modes), all rooms' day, one room's week`);
  try {
    if (weekRouteWorks) await waitIdle(session, gridPath);
    const buildingWeek = `/systems/${deviceId}/building?view=week`;
    const buildingWeekApartments = `${buildingWeek}&show=apartments`;
    const buildingDay = `/systems/${deviceId}/building?view=day`;
    // A room as managers see it. The grid room holds the bench's own 1,000 pending requests (for
    // (d)), about a hundred of them in this week: a page no real room shows; measured beside it.
    const typicalRoom = resources.items.find((r) => r.id !== gridResource)?.id ?? gridResource;
    const roomWeek = `/systems/${deviceId}/resources/${typicalRoom}?week=${week}`;
    const gridRoomWeek = `/systems/${deviceId}/resources/${gridResource}?week=${week}`;
    const probe = await session.fetch(buildingWeek);
    if (probe.status === 404) throw new Error('the building page answers 404 (not on this branch yet)');
    if (probe.status !== 200) throw new Error(`the building page answers ${probe.status}`);
    const weekHtml = await probe.text();
    const warmRuns = async (p: string) => {
      for (let i = 0; i < 5; i += 1) await session.timed(p);
      const ms: number[] = [];
      let bytes = 0;
      for (let i = 0; i < BUILDING_REQUESTS; i += 1) {
        const run = await session.timed(p);
        ms.push(run.ms);
        bytes = run.text.length;
      }
      return { p50: percentile(ms, 50), p95: percentile(ms, 95), n: ms.length, bytes };
    };
    const weekRun = await warmRuns(buildingWeek);
    const weekApartmentsRun = await warmRuns(buildingWeekApartments);
    const dayRun = await warmRuns(buildingDay);
    const roomRun = await warmRuns(roomWeek);
    const gridRoomRun = await warmRuns(gridRoomWeek);
    const rooms = (weekHtml.match(/<th scope="row"/g) ?? []).length;
    const js = await firstLoadJs(weekHtml, PORTAL);
    details.building = {
      rooms,
      week: { p50: round(weekRun.p50, 1), p95: round(weekRun.p95, 1), n: weekRun.n, htmlKb: round(weekRun.bytes / 1024) },
      weekApartments: { p50: round(weekApartmentsRun.p50, 1), p95: round(weekApartmentsRun.p95, 1), n: weekApartmentsRun.n, htmlKb: round(weekApartmentsRun.bytes / 1024) },
      day: { p50: round(dayRun.p50, 1), p95: round(dayRun.p95, 1), n: dayRun.n, htmlKb: round(dayRun.bytes / 1024) },
      roomWeek: { p50: round(roomRun.p50, 1), p95: round(roomRun.p95, 1), n: roomRun.n, htmlKb: round(roomRun.bytes / 1024) },
      roomWeekWithBenchRequests: { p50: round(gridRoomRun.p50, 1), p95: round(gridRoomRun.p95, 1), n: gridRoomRun.n, htmlKb: round(gridRoomRun.bytes / 1024) },
      firstLoadJs: js,
    };
    figure({ key: 'buildingWeekHtmlP50Ms', label: "(k) building view: all rooms' week, page HTML p50", value: round(weekRun.p50, 1), unit: 'ms', target: '≤ 50 ms', met: weekRun.p50 <= 50, note: `${rooms} rooms, ${round(weekRun.bytes / 1024)} kB HTML, p95 ${round(weekRun.p95, 1)} ms, n=${weekRun.n}` });
    // The apartments mode adds a list of held slots to each cell: measured and sized, without a target of its own.
    figure({ key: 'buildingWeekApartmentsHtmlP50Ms', label: "    building view: all rooms' week with apartments, page HTML p50", value: round(weekApartmentsRun.p50, 1), unit: 'ms', target: '—', met: null, note: `${round(weekApartmentsRun.bytes / 1024)} kB HTML (${round(weekApartmentsRun.bytes / Math.max(1, weekRun.bytes), 2)} × the default), p95 ${round(weekApartmentsRun.p95, 1)} ms, n=${weekApartmentsRun.n}` });
    figure({ key: 'buildingDayHtmlP50Ms', label: "    building view: all rooms' day, page HTML p50", value: round(dayRun.p50, 1), unit: 'ms', target: '≤ 150 ms', met: dayRun.p50 <= 150, note: `${round(dayRun.bytes / 1024)} kB HTML, p95 ${round(dayRun.p95, 1)} ms` });
    figure({ key: 'roomWeekHtmlP50Ms', label: "    one room's week page HTML p50", value: round(roomRun.p50, 1), unit: 'ms', target: '≤ 25 ms', met: roomRun.p50 <= 25, note: `${round(roomRun.bytes / 1024)} kB HTML, p95 ${round(roomRun.p95, 1)} ms; the room with the bench's pending requests ${round(gridRoomRun.p50, 1)} ms, ${round(gridRoomRun.bytes / 1024)} kB` });
    figure({ key: 'buildingFirstLoadJsKb', label: '    building page first-load JS (gzip)', value: round(js.gzipBytes / 1024), unit: 'kB', target: '≤ 170 kB', met: js.gzipBytes / 1024 <= 170, note: `${js.scripts} scripts, ${round(js.rawBytes / 1024)} kB raw` });
  } catch (e) {
    notMeasured('buildingWeekHtmlP50Ms', "(k) building view: all rooms' week, page HTML p50", '≤ 50 ms; day ≤ 150 ms; one room ≤ 25 ms; JS ≤ 170 kB', errorText(e));
  }

  if (lastPhase('k')) return finish(rss, portal);

  // ---- (d) webhook to browser over SSE
  rss.phase('(d)');
  step(`(d) webhook to browser: ${OUTCOMES} outcomes, ${SSE_CLIENTS} SSE clients`);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const clients: SseClient[] = [];
  try {
    if (weekRouteWorks) await waitIdle(session, gridPath);
    const probe = await session.fetch('/api/events', { signal: AbortSignal.timeout(3_000) }).catch((e: unknown) => {
      throw new Error(`GET /api/events: ${errorText(e)}`);
    });
    if (probe.status === 404) throw new Error('GET /api/events answers 404 (not on this branch yet)');
    await probe.body?.cancel();
    const viewerSessions: PortalSession[] = [];
    for (const viewer of viewers) {
      const viewerSession = new PortalSession(PORTAL);
      await viewerSession.signIn(viewer.email, viewer.password);
      viewerSessions.push(viewerSession);
    }
    for (let i = 0; i < SSE_CLIENTS; i += 1) clients.push(await openSseClient(PORTAL, viewerSessions[Math.floor(i / SSE_STREAMS_PER_SESSION)]!.cookieHeader(), agent));
    await sleep(500);
    const run = await sendOutcomes(PORTAL, String(portalEnv.WEBHOOK_SECRET), pending);
    await waitFor('every outcome at every client', 30_000, () => Promise.resolve(clients.every((c) => c.arrivals.size >= pending.length) ? true : undefined), 100).catch(() => undefined);
    const latencies: number[] = [];
    let missing = 0;
    for (const c of clients) {
      for (const r of pending) {
        const at = c.arrivals.get(r.id);
        const sent = run.sent.get(r.id)!;
        if (at === undefined) missing += 1;
        else latencies.push(at - sent);
      }
    }
    details.sse = { deliveries: latencies.length, missing, webhookResponseP50: round(percentile(run.webhookMs, 50), 2), p50: round(percentile(latencies, 50), 2), p99: round(percentile(latencies, 99), 2), max: round(latencies.reduce((a, b) => Math.max(a, b), 0), 1) };
    figure({ key: 'webhookToBrowserP50', label: '(d) webhook → browser p50', value: round(percentile(latencies, 50), 2), unit: 'ms', target: '—', met: null, note: `${latencies.length} deliveries, ${missing} missing` });
    figure({ key: 'webhookToBrowserP99', label: '    webhook → browser p99', value: round(percentile(latencies, 99), 2), unit: 'ms', target: '≤ 50 ms', met: missing === 0 && percentile(latencies, 99) <= 50 });
    figure({ key: 'webhookToBrowserMissing', label: '    outcomes that never reached a browser', value: missing, unit: '', target: '0', met: missing === 0, note: `of ${SSE_CLIENTS} × ${pending.length}` });
  } catch (e) {
    notMeasured('webhookToBrowserP99', '(d) webhook → browser p99', '≤ 50 ms', errorText(e));
  } finally {
    clients.forEach((c) => c.close());
    agent.destroy();
  }

  if (lastPhase('d')) return finish(rss, portal);

  // ---- (e) the grid page: first-load JS and Lighthouse
  rss.phase('(e)');
  step('(e) grid page: first-load JS and Lighthouse (desktop)');
  const pageUrl = `/systems/${deviceId}/resources/${gridResource}?week=${week}`;
  try {
    if (weekRouteWorks) await waitIdle(session, gridPath);
    const page = await session.fetch(pageUrl);
    if (page.status !== 200) throw new Error(`the grid page answers ${page.status} (not on this branch yet?)`);
    const js = await firstLoadJs(await page.text(), PORTAL);
    details.firstLoadJs = js;
    figure({ key: 'firstLoadJsKb', label: '(e) grid page first-load JS (gzip)', value: round(js.gzipBytes / 1024), unit: 'kB', target: '≤ 160 kB', met: js.gzipBytes / 1024 <= 160, note: `${js.scripts} scripts, ${round(js.rawBytes / 1024)} kB raw` });
    let lh: LighthouseResult | undefined;
    try {
      lh = await runLighthouse(`${PORTAL}${pageUrl}`, session.cookieHeader(), TMP, CHROME);
    } catch (e) {
      notMeasured('lighthouseScore', '    Lighthouse performance (desktop)', '≥ 95', errorText(e));
    }
    if (lh) {
      details.lighthouse = lh;
      figure({ key: 'lighthouseScore', label: '    Lighthouse performance (desktop)', value: lh.score, unit: '', target: '≥ 95', met: lh.score >= 95 });
      figure({ key: 'lcpMs', label: '    Lighthouse LCP', value: round(lh.lcpMs, 0), unit: 'ms', target: '≤ 1000 ms', met: lh.lcpMs <= 1000 });
    }
  } catch (e) {
    notMeasured('firstLoadJsKb', '(e) grid page first-load JS / Lighthouse', '≤ 160 kB; ≥ 95; LCP ≤ 1 s', errorText(e));
  }

  await finish(rss, portal);
}

/** (f) peak RSS over the phases run, then stop everything. */
async function finish(rss: RssSampler, portal: Tracked): Promise<void> {
  const peak = await rss.stop();
  load.end();
  // The peak over every portal phase run.
  const portalPhasesRun = Object.keys(load.phases).filter((p) => p !== '(l)' && p !== RUN);
  details.rss = { peakTreeRssMb: round(peak.peakTreeRssMb), peakHwmMb: round(peak.peakHwmMb), samples: peak.samples, byPhaseMb: peak.byPhaseMb };
  step(`peak RSS by phase (MB): ${JSON.stringify(peak.byPhaseMb)}`);
  figure({ key: 'peakRssMb', label: '(f) portal peak RSS (PGlite)', value: round(Math.max(peak.peakTreeRssMb, peak.peakHwmMb)), unit: 'MB', target: '≤ 500 MB', met: Math.max(peak.peakTreeRssMb, peak.peakHwmMb) <= 500, phases: portalPhasesRun });
  await stopProcess(portal);
}

/** (l) steady use: two instances on one PostgreSQL, managers viewing the large system; the upstream's cost. */
async function steadyPhase({ fixtures, deviceId, direct, approvalId }: Setup): Promise<void> {
  load.phase('(l)');
  const resources = await direct.all<{ id: string }>('resources', deviceId);
  try {
    const m = await runSteadyUse({
      root: ROOT,
      tmp: TMP,
      node: NODE,
      sandboxUrl: SANDBOX,
      fixtures,
      approvalId,
      deviceId,
      resourceIds: resources.items.map((r) => r.id),
      pgAdminUrl: PG_URL,
      ports: STEADY_PORTS,
      minutes: STEADY_MINUTES,
      managers: STEADY_MANAGERS,
      freshnessS: FRESHNESS_S,
      budgetPerHour: DEFAULT_BUDGET_PER_HOUR,
      budgetOverride: STEADY_BUDGET,
      thinkMs: [2_000, 6_000],
      step,
    });
    details.steady = m;
    figure(...steadyFigures(m, { freshnessS: FRESHNESS_S, defaultBudgetPerHour: DEFAULT_BUDGET_PER_HOUR }));
  } catch (e) {
    notMeasured('steadyScaledRequestsPerHour', '(l) steady use: upstream requests/h of the large system', '≤ budget; ≥ the re-reads the policy allows − 1; ≤ 1 re-page per window', errorText(e));
  } finally {
    load.end();
  }
}

/** The portal's process tree RSS in kB (Linux /proc). */
async function treeRssKb(pid: number): Promise<number> {
  let sum = 0;
  for (const p of await processTree(pid)) {
    const status = await readFile(`/proc/${p}/status`, 'utf8').catch(() => '');
    sum += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  }
  return sum;
}

/** Downloads an export, counting its records (lines) and bytes, while sampling the portal's RSS above its level at the start. */
async function streamExport(session: PortalSession, exportPath: string, pid: number): Promise<{ rows: number; bytes: number; ms: number; rssGrowthMb: number }> {
  const baseline = await treeRssKb(pid);
  let peak = baseline;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await treeRssKb(pid));
      await sleep(25);
    }
  })();
  const started = performance.now();
  let lines = 0;
  let bytes = 0;
  try {
    const response = await session.fetch(exportPath);
    if (response.status !== 200 || !response.body) throw new Error(`GET ${exportPath} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines += 1;
    }
  } finally {
    sampling = false;
    await sampler;
  }
  const ms = performance.now() - started;
  // Lines less the header (names hold no line breaks, so a line is a record).
  return { rows: Math.max(0, lines - 1), bytes, ms, rssGrowthMb: (peak - baseline) / 1024 };
}

function printTable(loadByPhase: Record<string, PhaseLoad>): void {
  const rows = figures.map((f) => [
    f.label,
    f.value === null ? '—' : `${f.value} ${f.unit}`.trim(),
    f.target,
    f.met === null ? (f.note?.startsWith('not measured') ? 'n/a' : '') : f.met ? 'yes' : 'NO',
    describeLoad(f.phases ?? [RUN], loadByPhase),
    compareFigure(f, PREVIOUS?.byKey.get(f.key)).text,
    f.note ?? '',
  ]);
  const header = ['figure', 'measured', 'target', 'met?', `load (${load.cores} cores)`, 'previous run', 'note'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
  const before = PREVIOUS ? `previous run: ${PREVIOUS.commit ?? '?'} at ${PREVIOUS.ranAt ?? '?'}, load average ${PREVIOUS.loadAverageAtStart?.join(' ') ?? '?'}` : 'previous run: none committed';
  console.log(`\n${before}\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('-|-')}`);
  for (const r of rows) console.log(line(r));
  console.log('');
}

let failure: unknown;
const started = Date.now();
try {
  await main();
} catch (e) {
  failure = e;
  console.error(`bench: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
} finally {
  await stopAll();
}
details.durationSeconds = round((Date.now() - started) / 1000);
const loadByPhase = await load.stop();
for (const f of figures) f.contended = figureContended(f.phases ?? [RUN], loadByPhase);
const contendedPhases = load.contendedPhases();
details.load = { cores: load.cores, samplingSeconds: 5, phases: loadByPhase };
printTable(loadByPhase);
if (contendedPhases.length > 0) {
  console.log(`contended: the 1-minute load went above ${load.cores} (the cores) in ${contendedPhases.join(', ')}; their figures are printed, not compared, and not for committing (docs/benchmark.md)`);
}
await mkdir(BENCH_DIR, { recursive: true });
// A run of some phases only, or with a contended phase, does not replace the committed figures:
// it goes beside the logs instead.
const COMMITTABLE = (ALL_PHASES || PORTFOLIO_ONLY) && contendedPhases.length === 0;
const RESULTS = COMMITTABLE ? path.join(BENCH_DIR, PORTFOLIO_ONLY ? 'portfolio-results.json' : 'results.json') : path.join(TMP, 'results.json');
await mkdir(path.dirname(RESULTS), { recursive: true });
await writeFile(
  RESULTS,
  `${JSON.stringify({ ranAt: new Date().toISOString(), commit: currentCommit(ROOT), loadAverageAtEnd: loadavg().map((v) => round(v, 2)), contendedPhases, figures, details, error: failure ? errorText(failure) : null }, null, 2)}\n`,
);
const why = !ALL_PHASES && !PORTFOLIO_ONLY ? ' (some phases only: not for committing)' : contendedPhases.length > 0 ? ' (contended: not for committing)' : '; commit it with the change it measures, so the next run prints beside it';
console.log(`wrote ${path.relative(ROOT, RESULTS)}${failure ? ' (incomplete: the run failed)' : ''}${why}`);
process.exit(failure ? 1 : 0);

/**
 * What a desk types, built from the sample residents of the large system: first names, surnames,
 * whole names, apartment numbers with and without "LGH", e-mail prefixes and reference serials.
 */
function residentSearchQueries(residents: readonly { name: string; email: string; apartmentId: string; referenceId: string }[]): string[] {
  if (residents.length === 0) throw new Error('no sample residents in the fixtures');
  const queries = ['anna', 'erik', 'persson', 'lgh 1', 'ref-01', 'lin pers', 'åberg'];
  for (const r of residents) {
    const [first = '', last = ''] = r.name.split(' ');
    const digits = r.apartmentId.replace(/\D/g, '');
    queries.push(first.toLowerCase(), last, r.name, r.apartmentId, `LGH ${digits}`, digits, r.email.slice(0, 6), r.referenceId.slice(-6), r.referenceId.toLowerCase());
  }
  return queries;
}
