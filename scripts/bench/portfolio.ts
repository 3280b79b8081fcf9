// Bench phase (n), portfolio (issue 49): a customer's size. A standalone sandbox with the
// `portfolio` preset (1,000 small systems by default, --portfolio-systems), 30 ms latency; one
// `next start` on a fresh PostgreSQL database with the default settings. An admin connects every
// approval from an empty database; from then on, until every system is loaded, an admin and a
// manager keep searching residents and opening the systems list and API, counting any 5xx. The
// manager is given every system in one action. Once all are loaded: the systems page and API
// (manager with all of them), resident search across all systems, the portfolio overview cold and
// warm, and finally 2,000 live streams (200 viewer sessions of 10) open for two minutes while
// outcomes arrive by webhook, each counted at every stream (missing, duplicated, latency). The
// portal's peak RSS covers the whole phase. Every figure carries the phase's load (scripts/bench/load.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import pg from 'pg';
import type { SandboxFixtures } from '@/sandbox';
import { createDatabase, sandboxServiceEnv } from '../harness/processes';
import { PortalSession, percentile, round, sleep, timedGet, type TimedAnswer } from './http';
import { sampleRss, startProcess, stopProcess, type Tracked } from './proc';
import { ServerTimings } from './server-timings';
import { openSseClient, sendOutcomes, type PendingRequest, type SseClient } from './sse';
import type { BenchFigure } from './figure';

export interface PortfolioOptions {
  root: string;
  tmp: string;
  node: string;
  pgAdminUrl: string;
  port: number;
  sandboxPort: number;
  latencyMs: number;
  /** Systems in the preset (the 1,000). */
  systems: number;
  /** Live streams opened at the end (the 2,000), in sessions of `streamsPerSession`. */
  streams: number;
  streamsPerSession: number;
  /** How long the streams stay open while outcomes arrive (ms), and how many outcomes in that time. */
  streamMs: number;
  outcomes: number;
  /** The longest the loading may take before the phase gives up waiting (ms). */
  loadTimeoutMs: number;
  searches: number;
  /** NODE_OPTIONS of the portal alone (a profiler's flags), none by default. */
  nodeOptions?: string;
  step: (message: string) => void;
}

export interface PortfolioSink {
  figure: (...fs: BenchFigure[]) => void;
  details: Record<string, unknown>;
}

/** The goals of issue 49 (its table), so that the figures and docs/benchmark.md name one source. */
export const PORTFOLIO_GOALS = {
  loadAllS: 600,
  systemsP50Ms: 100,
  systemsKb: 200,
  searchLoadedP95Ms: 50,
  overviewWarmP50Ms: 300,
  overviewColdMs: 3_000,
  assignMs: 2_000,
  searchWhileLoadingP95Ms: 200,
  peakRssMb: 1_024,
  streamP99Ms: 1_000,
} as const;

interface SandboxStats {
  total: number;
}

/** What one timed request of the load-time mix saw. */
interface Probe {
  what: string;
  status: number;
  ms: number;
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 300);

async function timedOrStatus(session: PortalSession, pathname: string): Promise<TimedAnswer> {
  return timedGet(`${session.baseUrl}${pathname}`, { cookie: session.cookieHeader() });
}

/** p50, p95 and the wire size of `n` GETs of one path (each must answer 2xx). */
async function measureGets(session: PortalSession, paths: readonly string[], n: number): Promise<{ p50: number; p95: number; kb: number; statuses: number[]; serverTiming: Record<string, number> }> {
  const ms: number[] = [];
  const statuses: number[] = [];
  const parts = new ServerTimings();
  let bytes = 0;
  for (let i = 0; i < n; i += 1) {
    const answer = await timedOrStatus(session, paths[i % paths.length]!);
    statuses.push(answer.status);
    if (answer.status >= 200 && answer.status < 300) {
      ms.push(answer.ms);
      bytes = Math.max(bytes, answer.wireBytes);
      parts.add(answer);
    }
  }
  if (ms.length === 0) throw new Error(`${paths[0]} never answered 2xx (${[...new Set(statuses)].join(', ')})`);
  // Where the handler's time went (the portal runs with SERVER_TIMING=1): the medians of each part.
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), kb: bytes / 1024, statuses, serverTiming: parts.medians() };
}

/** Queries a manager would type: parts of residents' names, apartment numbers, e-mail beginnings. */
function searchQueries(fixtures: SandboxFixtures, count: number): string[] {
  const residents = fixtures.residents;
  const out: string[] = [];
  for (let i = 0; i < count && residents.length > 0; i += 1) {
    const r = residents[(i * 7919) % residents.length]!;
    const kind = i % 3;
    if (kind === 0) out.push(r.name.split(' ')[0]!.slice(0, 4));
    else if (kind === 1) out.push(r.name.split(' ').at(-1)!);
    else out.push(r.email.split('@')[0]!.slice(0, 5));
  }
  return out;
}

export async function runPortfolioPhase(o: PortfolioOptions, sink: PortfolioSink): Promise<void> {
  const { figure, details } = sink;
  const notMeasured = (key: string, label: string, target: string, reason: string) => figure({ key, label, value: null, unit: '', target, met: null, note: `not measured: ${reason}` });
  const sandboxUrl = `http://127.0.0.1:${o.sandboxPort}`;
  const url = `http://127.0.0.1:${o.port}`;
  const processes: Tracked[] = [];
  const database = await createDatabase(o.pgAdminUrl, 'portal_bench_portfolio');
  const db = new pg.Client({ connectionString: database.url });
  const info: Record<string, unknown> = { systems: o.systems, latencyMs: o.latencyMs, database: 'postgresql' };
  details.portfolio = info;
  try {
    o.step(`(n) portfolio: sandbox on ${sandboxUrl} (preset portfolio, ${o.systems} systems, ${o.latencyMs} ms latency)`);
    const seedStart = performance.now();
    const sandbox = startProcess('portfolio-sandbox', o.node, ['node_modules/tsx/dist/cli.mjs', 'sandbox/server.ts', '--port', String(o.sandboxPort), '--preset', 'portfolio', '--systems', String(o.systems), '--latency', String(o.latencyMs), '--data-dir', path.join(o.tmp, 'portfolio-sandbox')], {
      cwd: o.root,
      env: { ...process.env, DATABASE_URL: '' },
      logFile: path.join(o.tmp, 'portfolio-sandbox.log'),
    });
    processes.push(sandbox);
    for (;;) {
      if (sandbox.child.exitCode !== null) throw new Error(`the portfolio sandbox exited: ${sandbox.output().slice(-1500)}`);
      if (/ready in/.test(sandbox.output())) break;
      if (performance.now() - seedStart > 900_000) throw new Error('the portfolio sandbox did not start within 15 minutes');
      await sleep(500);
    }
    const fixtures = (await (await fetch(`${sandboxUrl}/_sandbox/fixtures`)).json()) as SandboxFixtures;
    const deviceCount = new Set(fixtures.approvals.flatMap((a) => a.deviceIds)).size;
    info.sandboxSeedS = round((performance.now() - seedStart) / 1000);
    info.approvals = fixtures.approvals.length;
    info.residents = fixtures.residents.length;
    o.step(`(n) portfolio: ${deviceCount} systems in ${fixtures.approvals.length} approvals, seeded in ${info.sandboxSeedS as number} s`);

    const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
    const metricsToken = randomBytes(24).toString('hex');
    const portal = startProcess('portfolio-portal', o.node, ['node_modules/next/dist/bin/next', 'start', '--port', String(o.port), '--hostname', '127.0.0.1'], {
      cwd: o.root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORTAL_URL: url,
        DATABASE_URL: database.url,
        DATA_DIR: path.join(o.tmp, 'portfolio-portal'),
        LOG_LEVEL: 'warn',
        // Where each answer's time went (Server-Timing), kept beside the figures in details.
        SERVER_TIMING: '1',
        // Where the memory is (the V8 heap, its spaces, buffers outside it), read beside the RSS.
        METRICS_TOKEN: metricsToken,
        ...(o.nodeOptions ? { NODE_OPTIONS: o.nodeOptions } : {}),
        ...sandboxServiceEnv(sandboxUrl, fixtures),
        WEBHOOK_SECRET: webhookSecret,
        AUTH_SECRET: randomBytes(32).toString('hex'),
        ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        // The outcomes below are the bench's own; no reconciliation while it runs.
        RECONCILE_AFTER_S: '86400',
      },
      logFile: path.join(o.tmp, 'portfolio-portal.log'),
    });
    processes.push(portal);
    const rss = sampleRss(portal.pid, 250);
    const memory = sampleMemory(url, metricsToken, 5_000);
    const deadline = Date.now() + 180_000;
    for (;;) {
      if (portal.child.exitCode !== null) throw new Error(`portal exited: ${portal.output().slice(-1500)}`);
      if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) break;
      if (Date.now() > deadline) throw new Error('the portal did not answer /api/health');
      await sleep(300);
    }

    // Accounts straight into the fresh database: an admin, a manager, and the stream viewers.
    await db.connect();
    const password = `pw-${randomUUID()}`;
    const hash = await bcrypt.hash(password, 10);
    const insertUser = async (email: string, name: string, role: 'admin' | 'manager') =>
      (await db.query<{ id: string }>(`INSERT INTO users (email, name, role, password_hash) VALUES ($1, $2, $3, $4) RETURNING id`, [email, name, role, hash])).rows[0]!.id;
    const adminId = await insertUser('portfolio-admin@example.com', 'Portfolio Admin', 'admin');
    const managerId = await insertUser('portfolio-manager@example.com', 'Portfolio Manager', 'manager');
    const viewerCount = Math.ceil(o.streams / o.streamsPerSession);
    for (let i = 0; i < viewerCount; i += 1) await insertUser(`portfolio-viewer-${i + 1}@example.com`, `Viewer ${i + 1}`, 'admin');
    const admin = new PortalSession(url);
    await admin.signIn('portfolio-admin@example.com', password);
    const manager = new PortalSession(url);
    await manager.signIn('portfolio-manager@example.com', password);

    // ---- connecting every approval, from an empty database
    rss.phase('connect');
    await fetch(`${sandboxUrl}/_sandbox/stats`, { method: 'DELETE' });
    const connectStart = performance.now();
    for (const approval of fixtures.approvals) {
      await admin.json('/api/admin/systems', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ approvalId: approval.approvalId }) });
    }
    const connectS = (performance.now() - connectStart) / 1000;
    info.connectS = round(connectS, 1);
    o.step(`(n) portfolio: ${fixtures.approvals.length} approvals connected in ${round(connectS, 1)} s; loading in the background`);

    // ---- assigning every system to the manager, one action
    try {
      const assign = await assignAll(admin, managerId);
      const count = (await db.query<{ n: string }>('SELECT count(*) AS n FROM manager_systems WHERE user_id = $1', [managerId])).rows[0]!.n;
      info.assign = { ms: round(assign.ms), assigned: Number(count), via: assign.via };
      figure({ key: 'portfolioAssignMs', label: `(n) assign all ${deviceCount} systems to a manager`, value: round(assign.ms), unit: 'ms', target: `one action, ≤ ${PORTFOLIO_GOALS.assignMs} ms`, met: Number(count) === deviceCount && assign.ms <= PORTFOLIO_GOALS.assignMs, note: `${count} assigned, ${assign.via}` });
    } catch (e) {
      notMeasured('portfolioAssignMs', '(n) assign all systems to a manager', `≤ ${PORTFOLIO_GOALS.assignMs} ms`, errorText(e));
    }

    // ---- while every system loads: searches, pages and APIs, counting 5xx
    rss.phase('loading');
    const queries = searchQueries(fixtures, Math.max(o.searches, 50));
    const probes: Probe[] = [];
    const searchParts = new ServerTimings();
    let stopMix = false;
    const mix = (async () => {
      let i = 0;
      while (!stopMix) {
        const q = queries[i % queries.length]!;
        const targets: [string, PortalSession, string][] = [
          ['search', manager, `/api/residents?q=${encodeURIComponent(q)}`],
          ['systems API', manager, '/api/systems'],
          ['systems page', manager, '/systems'],
          ['admin systems page', admin, '/admin/systems'],
        ];
        const [what, session, pathname] = targets[i % targets.length]!;
        try {
          const answer = await timedOrStatus(session, pathname);
          probes.push({ what, status: answer.status, ms: answer.ms });
          if (what === 'search' && answer.status === 200) searchParts.add(answer);
        } catch {
          probes.push({ what, status: 0, ms: 0 });
        }
        i += 1;
        await sleep(200);
      }
    })();
    const loadStart = connectStart;
    let loaded = 0;
    let total = deviceCount;
    const progress: { s: number; loaded: number }[] = [];
    while (performance.now() - loadStart < o.loadTimeoutMs) {
      const row = (await db.query<{ total: string; loaded: string }>(
        `SELECT count(*) AS total, count(m.refreshed_at) AS loaded FROM systems s LEFT JOIN mirror_state m ON m.device_id = s.device_id`,
      )).rows[0]!;
      total = Number(row.total);
      loaded = Number(row.loaded);
      const s = round((performance.now() - loadStart) / 1000);
      if (progress.length === 0 || s - progress.at(-1)!.s >= 30 || loaded === total) progress.push({ s, loaded });
      if (total > 0 && loaded === total) break;
      await sleep(2_000);
    }
    stopMix = true;
    await mix;
    const loadS = (performance.now() - loadStart) / 1000;
    const requests = ((await (await fetch(`${sandboxUrl}/_sandbox/stats`)).json()) as SandboxStats).total;
    info.loading = { seconds: round(loadS), loaded, total, upstreamRequests: requests, progress };
    const allLoaded = total > 0 && loaded === total;
    figure({ key: 'portfolioLoadAllS', label: `(n) every system loaded after connecting (${total})`, value: allLoaded ? round(loadS) : null, unit: 's', target: `≤ ${PORTFOLIO_GOALS.loadAllS} s`, met: allLoaded && loadS <= PORTFOLIO_GOALS.loadAllS, note: `${loaded} of ${total} loaded after ${round(loadS)} s, ${requests} upstream requests` });
    const fiveXx = probes.filter((p) => p.status >= 500 || p.status === 0);
    const searchesWhileLoading = probes.filter((p) => p.what === 'search' && p.status >= 200 && p.status < 300).map((p) => p.ms);
    const byWhat = Object.fromEntries(['search', 'systems API', 'systems page', 'admin systems page'].map((w) => {
      const list = probes.filter((p) => p.what === w);
      const ok = list.filter((p) => p.status >= 200 && p.status < 300).map((p) => p.ms);
      return [w, { n: list.length, errors: list.length - ok.length, p50: round(percentile(ok, 50)), p95: round(percentile(ok, 95)) }];
    }));
    info.whileLoading = { ...byWhat, searchServerTimingP50: searchParts.medians() };
    figure({ key: 'portfolio5xxWhileLoading', label: '    answers 5xx while all load', value: fiveXx.length, unit: '', target: '0', met: probes.length > 0 && fiveXx.length === 0, note: `of ${probes.length} requests (searches, systems page and API, admin systems page)` });
    figure({ key: 'portfolioSearchWhileLoadingP95Ms', label: '    resident search p95 while all load', value: searchesWhileLoading.length > 0 ? round(percentile(searchesWhileLoading, 95)) : null, unit: 'ms', target: `≤ ${PORTFOLIO_GOALS.searchWhileLoadingP95Ms} ms`, met: searchesWhileLoading.length > 0 && percentile(searchesWhileLoading, 95) <= PORTFOLIO_GOALS.searchWhileLoadingP95Ms, note: `${searchesWhileLoading.length} searches, p50 ${round(percentile(searchesWhileLoading, 50))} ms` });

    // ---- everything loaded: the systems list, search, the overview
    rss.phase('loaded');
    try {
      const api = await measureGets(manager, ['/api/systems'], 50);
      const page = await measureGets(manager, ['/systems'], 30);
      info.systemsList = { api: { p50: round(api.p50, 1), p95: round(api.p95, 1), kb: round(api.kb), serverTimingP50: api.serverTiming }, page: { p50: round(page.p50, 1), p95: round(page.p95, 1), kb: round(page.kb), serverTimingP50: page.serverTiming } };
      const worst = Math.max(api.p50, page.p50);
      const kb = Math.max(api.kb, page.kb);
      figure({ key: 'portfolioSystemsP50Ms', label: `(n) systems page and API p50 (manager with ${total})`, value: round(worst, 1), unit: 'ms', target: `≤ ${PORTFOLIO_GOALS.systemsP50Ms} ms, ≤ ${PORTFOLIO_GOALS.systemsKb} kB`, met: worst <= PORTFOLIO_GOALS.systemsP50Ms && kb <= PORTFOLIO_GOALS.systemsKb, note: `API p50 ${round(api.p50, 1)} ms ${round(api.kb)} kB; page p50 ${round(page.p50, 1)} ms ${round(page.kb)} kB (gzip)` });
    } catch (e) {
      notMeasured('portfolioSystemsP50Ms', '(n) systems page and API p50', `≤ ${PORTFOLIO_GOALS.systemsP50Ms} ms`, errorText(e));
    }
    try {
      for (const q of queries.slice(0, 10)) await manager.fetch(`/api/residents?q=${encodeURIComponent(q)}`).then((r) => r.text());
      const search = await measureGets(manager, queries.map((q) => `/api/residents?q=${encodeURIComponent(q)}`), o.searches);
      info.searchLoaded = { p50: round(search.p50, 1), p95: round(search.p95, 1), n: o.searches, serverTimingP50: search.serverTiming };
      figure({ key: 'portfolioSearchP95Ms', label: `(n) resident search p95 across ${total} systems`, value: round(search.p95, 1), unit: 'ms', target: `≤ ${PORTFOLIO_GOALS.searchLoadedP95Ms} ms`, met: search.p95 <= PORTFOLIO_GOALS.searchLoadedP95Ms, note: `p50 ${round(search.p50, 1)} ms, ${o.searches} searches` });
    } catch (e) {
      notMeasured('portfolioSearchP95Ms', '(n) resident search p95', `≤ ${PORTFOLIO_GOALS.searchLoadedP95Ms} ms`, errorText(e));
    }
    try {
      const overview = overviewPath();
      const cold = await timedOrStatus(manager, overview);
      if (cold.status !== 200) throw new Error(`${overview} answered ${cold.status}`);
      const warm = await measureGets(manager, [overview], 20);
      info.overview = { coldMs: round(cold.ms), warmP50: round(warm.p50), warmP95: round(warm.p95), kb: round(warm.kb), serverTimingP50: warm.serverTiming };
      figure({ key: 'portfolioOverviewWarmP50Ms', label: '(n) portfolio overview, 1 month, p50 warm', value: round(warm.p50), unit: 'ms', target: `≤ ${PORTFOLIO_GOALS.overviewWarmP50Ms} ms`, met: warm.p50 <= PORTFOLIO_GOALS.overviewWarmP50Ms, note: `${round(warm.kb)} kB, p95 ${round(warm.p95)} ms` });
      figure({ key: 'portfolioOverviewColdMs', label: '    portfolio overview, cold', value: round(cold.ms), unit: 'ms', target: `≤ ${PORTFOLIO_GOALS.overviewColdMs} ms`, met: cold.ms <= PORTFOLIO_GOALS.overviewColdMs });
    } catch (e) {
      notMeasured('portfolioOverviewWarmP50Ms', '(n) portfolio overview p50 warm', `≤ ${PORTFOLIO_GOALS.overviewWarmP50Ms} ms`, errorText(e));
    }

    // ---- live streams: every event once, at every stream
    rss.phase('streams');
    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const clients: SseClient[] = [];
    try {
      const residents = fixtures.residents.filter((r) => r.resourceIds.length > 0);
      const pending: PendingRequest[] = [];
      const rows = Array.from({ length: o.outcomes }, (_, i) => {
        const resident = residents[i % residents.length]!;
        const start = new Date(Date.now() + (i + 1) * 3_600_000);
        return { id: randomUUID(), correlationId: randomUUID(), deviceId: resident.deviceId, resourceId: resident.resourceIds[0]!, userId: resident.userId, start, end: new Date(start.getTime() + 90 * 60_000) };
      });
      for (const r of rows) {
        await db.query(
          `INSERT INTO reservation_requests (id, kind, device_id, resource_id, resident_user_id, start_time, end_time, requested_by, status, correlation_id)
           VALUES ($1, 'create', $2, $3, $4, $5, $6, $7, 'pending', $8)`,
          [r.id, r.deviceId, r.resourceId, r.userId, r.start, r.end, adminId, r.correlationId],
        );
        pending.push({ id: r.id, correlationId: r.correlationId });
      }
      const sessions: PortalSession[] = [];
      for (let i = 0; i < viewerCount; i += 1) {
        const s = new PortalSession(url);
        await s.signIn(`portfolio-viewer-${i + 1}@example.com`, password);
        sessions.push(s);
      }
      o.step(`(n) portfolio: opening ${o.streams} live streams in ${viewerCount} sessions`);
      for (let i = 0; i < o.streams; i += 1) clients.push(await openSseClient(url, sessions[Math.floor(i / o.streamsPerSession)]!.cookieHeader(), agent));
      await sleep(1_000);
      o.step(`(n) portfolio: ${o.outcomes} outcomes over ${round(o.streamMs / 1000)} s`);
      const gap = o.streamMs / Math.max(1, o.outcomes);
      const sent = new Map<string, number>();
      const began = performance.now();
      for (const [i, request] of pending.entries()) {
        const wait = began + i * gap - performance.now();
        if (wait > 0) await sleep(wait);
        const run = await sendOutcomes(url, webhookSecret, [request]);
        sent.set(request.id, run.sent.get(request.id)!);
      }
      const settleUntil = performance.now() + 10_000;
      while (performance.now() < settleUntil && !clients.every((c) => c.arrivals.size >= pending.length)) await sleep(200);
      const latencies: number[] = [];
      let missing = 0;
      let duplicates = 0;
      for (const c of clients) {
        duplicates += c.duplicates();
        for (const r of pending) {
          const at = c.arrivals.get(r.id);
          if (at === undefined) missing += 1;
          else latencies.push(at - sent.get(r.id)!);
        }
      }
      const p99 = percentile(latencies, 99);
      info.streams = { streams: o.streams, outcomes: pending.length, seconds: round(o.streamMs / 1000), deliveries: latencies.length, missing, duplicates, p50: round(percentile(latencies, 50), 1), p99: round(p99, 1), max: round(latencies.reduce((a, b) => Math.max(a, b), 0)) };
      figure({ key: 'portfolioStreamsP99Ms', label: `(n) ${o.streams} live streams for ${round(o.streamMs / 60_000, 1)} min: event p99`, value: round(p99, 1), unit: 'ms', target: `every event once, ≤ ${PORTFOLIO_GOALS.streamP99Ms} ms`, met: missing === 0 && duplicates === 0 && p99 <= PORTFOLIO_GOALS.streamP99Ms, note: `${latencies.length} deliveries, ${missing} missing, ${duplicates} twice, p50 ${round(percentile(latencies, 50), 1)} ms` });
    } catch (e) {
      notMeasured('portfolioStreamsP99Ms', `(n) ${o.streams} live streams: event p99`, `≤ ${PORTFOLIO_GOALS.streamP99Ms} ms`, errorText(e));
    } finally {
      clients.forEach((c) => c.close());
      agent.destroy();
    }
    const peak = await rss.stop();
    info.rss = { ...peak, breakdown: await memory.stop() };
    figure({ key: 'portfolioPeakRssMb', label: `(n) peak RSS, ${total} systems loaded and ${o.streams} streams`, value: round(peak.peakTreeRssMb, 1), unit: 'MB', target: `≤ ${PORTFOLIO_GOALS.peakRssMb} MB`, met: peak.peakTreeRssMb <= PORTFOLIO_GOALS.peakRssMb, note: Object.entries(peak.byPhaseMb).map(([k, v]) => `${k} ${v}`).join(', ') });
  } finally {
    await db.end().catch(() => undefined);
    for (const p of processes.reverse()) await stopProcess(p);
  }
}

/** What the portal's process said of its memory (prom-client's default metrics), in MB. */
export interface MemoryReading {
  atS: number;
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  /** Used size of each V8 heap space (old_space, new_space, large_object_space, code_space, …). */
  spacesMb: Record<string, number>;
}

/** Reads the metrics' memory lines: process_resident_memory_bytes, nodejs_heap_*, nodejs_external_memory_bytes. */
export function memoryReadingOf(text: string, atS: number): MemoryReading | null {
  const mb = (name: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    return line ? round(Number(line.split(' ')[1]) / 2 ** 20, 1) : null;
  };
  const rssMb = mb('process_resident_memory_bytes');
  if (rssMb === null) return null;
  const spacesMb: Record<string, number> = {};
  for (const m of text.matchAll(/^nodejs_heap_space_size_used_bytes\{space="(\w+)"\} (\d+(?:\.\d+)?)/gm)) spacesMb[m[1]!] = round(Number(m[2]) / 2 ** 20, 1);
  return { atS, rssMb, heapUsedMb: mb('nodejs_heap_size_used_bytes') ?? 0, heapTotalMb: mb('nodejs_heap_size_total_bytes') ?? 0, externalMb: mb('nodejs_external_memory_bytes') ?? 0, spacesMb };
}

/**
 * Polls the portal's /api/metrics every `intervalMs` for its memory, keeping the reading with the
 * highest RSS and the highest heap used: where the peak RSS is (heap, buffers outside it, or
 * neither: what V8 and the allocator hold but do not use).
 */
function sampleMemory(url: string, token: string, intervalMs: number): { stop: () => Promise<{ atPeakRss: MemoryReading | null; atPeakHeap: MemoryReading | null; readings: number }> } {
  const started = performance.now();
  let atPeakRss: MemoryReading | null = null;
  let atPeakHeap: MemoryReading | null = null;
  let readings = 0;
  let active = true;
  const loop = (async () => {
    while (active) {
      const text = await fetch(`${url}/api/metrics`, { headers: { authorization: `Bearer ${token}` } }).then((r) => (r.ok ? r.text() : ''), () => '');
      const reading = memoryReadingOf(text, round((performance.now() - started) / 1000));
      if (reading) {
        readings += 1;
        if (!atPeakRss || reading.rssMb > atPeakRss.rssMb) atPeakRss = reading;
        if (!atPeakHeap || reading.heapUsedMb > atPeakHeap.heapUsedMb) atPeakHeap = reading;
      }
      await sleep(intervalMs);
    }
  })();
  return {
    stop: async () => {
      active = false;
      await loop;
      return { atPeakRss, atPeakHeap, readings };
    },
  };
}

/** The portfolio overview of the last month, as a manager opens it. */
function overviewPath(): string {
  return '/portfolio?period=last-month';
}

/** Gives the manager every system in one action (the admin's bulk assignment), timed. */
async function assignAll(admin: PortalSession, managerId: string): Promise<{ ms: number; via: string }> {
  const start = performance.now();
  await admin.json(`/api/admin/managers/${managerId}/systems`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ change: 'assign', selection: { all: true } }) });
  return { ms: performance.now() - start, via: 'POST /api/admin/managers/{id}/systems' };
}
