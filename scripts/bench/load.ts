// The machine's load during each bench phase (issue 34): the 1/5/15-minute load average at the
// phase's start and end, and the 1-minute figure sampled every few seconds in between. A phase
// whose 1-minute load went above the core count (os.availableParallelism()) is "contended": its
// figures say what the machine was doing as much as what the portal does, so they are printed
// but never compared with another run's (scripts/bench/previous.ts), and a run with one is not
// committed as bench/results.json (docs/benchmark.md). The load average counts the bench's own
// processes too, and on 2 cores the portal, the sandbox and the client load the machine by
// themselves (and a phase's 1-minute figure still holds the minute before it, e.g. the build). So
// the CPU of the phase is split (Linux /proc): the bench's own processes (ownCpuCores) and everything
// else the machine ran, hypervisor steal included (othersCpuCores). A high load is contention only
// when others used the CPU: more than OTHERS_LIMIT_CORES on average in the phase. The PostgreSQL
// processes serving the bench's own databases (named portal_bench_…: the backends of its portals
// and their autovacuum) are its own too: on PostgreSQL that is half the phase's CPU ((l), (n)).
import { readdir, readFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { round } from './http';
import { processTree, type RssSampler } from './proc';

/** The load of one phase, as written to results.json (details.load.phases). */
export interface PhaseLoad {
  /** 1, 5 and 15-minute load average when the phase started and ended. */
  start: number[];
  end: number[];
  /** The highest 1-minute load seen: start, end and every sample between. */
  max1: number;
  samples: number;
  seconds: number;
  /** CPU the bench's own processes (this one and every child tree) used in the phase, in cores. */
  ownCpuCores: number | null;
  /** CPU everything else used in the phase (the machine's busy time, steal included, less ownCpuCores), in cores. */
  othersCpuCores: number | null;
  contended: boolean;
}

/** Others' CPU beyond which a phase whose load went above the cores counts as contended (a quarter of a core). */
export const OTHERS_LIMIT_CORES = 0.25;

/**
 * Whether a phase was contended: its 1-minute load above the core count at any reading, unless the
 * CPU split shows that load was the bench's own (others used at most OTHERS_LIMIT_CORES). Without
 * the split (`null`) the load alone decides.
 */
export function isContended(oneMinuteReadings: readonly number[], cores: number, othersCpuCores: number | null = null): boolean {
  if (!oneMinuteReadings.some((v) => v > cores)) return false;
  return othersCpuCores === null || othersCpuCores > OTHERS_LIMIT_CORES;
}

/** A figure's phases contended when any of them was (a figure may rest on several phases). */
export function figureContended(phases: readonly string[], byPhase: Readonly<Record<string, Pick<PhaseLoad, 'contended'>>>): boolean {
  return phases.some((p) => byPhase[p]?.contended === true);
}

/** "2.31 contended" / "0.84": the table's load column for a figure (the highest 1-minute load of its phases). */
export function describeLoad(phases: readonly string[], byPhase: Readonly<Record<string, Pick<PhaseLoad, 'contended' | 'max1'>>>): string {
  const known = phases.map((p) => byPhase[p]).filter((l) => l !== undefined);
  if (known.length === 0) return '';
  const max1 = Math.max(...known.map((l) => l.max1));
  return `${max1.toFixed(2)}${known.some((l) => l.contended) ? ' contended' : ''}`;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux
/** The whole run's record in `phases`: figures measured outside any phase are judged by it. */
export const RUN = 'run';

/**
 * The CPU seconds of this process and every descendant (Linux /proc): each one's utime + stime,
 * plus cutime + cstime, the time of its children already ended (so a child that exits in a phase
 * still counts).
 */
async function ownCpuSeconds(): Promise<number> {
  let ticks = 0;
  for (const p of await processTree(process.pid)) ticks += cpuTicksOf(await readFile(`/proc/${p}/stat`, 'utf8').catch(() => ''), true);
  await sampleBenchBackends();
  for (const t of backendTicks.values()) ticks += t;
  return ticks / TICKS_PER_SECOND;
}

/** utime + stime of a /proc/PID/stat line, and with `children` its ended children's too (cutime + cstime). */
export function cpuTicksOf(stat: string, children: boolean): number {
  // The fields after the command (which may hold spaces) start after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  let ticks = 0;
  for (const i of children ? [11, 12, 13, 14] : [11, 12]) ticks += Number(fields[i] ?? 0) || 0;
  return ticks;
}

/**
 * Whether a process title (/proc/PID/cmdline) is a PostgreSQL process working for one of the
 * bench's databases: "postgres: 15/main: postgres portal_bench_portfolio_… 127.0.0.1(5123) idle",
 * or an autovacuum worker on one.
 */
export function isBenchBackend(cmdline: string): boolean {
  return cmdline.startsWith('postgres: ') && /\sportal_bench_\w+/.test(cmdline.replaceAll('\0', ' '));
}

/**
 * The highest CPU ticks seen of each PostgreSQL process working for the bench's databases, by pid:
 * kept after the process ends (a backend's time is not added to any process of the bench's), so
 * the sum only grows. Sampled with every load reading; a backend that lives and ends between two
 * readings goes uncounted, which can only make a phase look more contended, never less.
 */
const backendTicks = new Map<number, number>();

async function sampleBenchBackends(): Promise<void> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e))
      .map(async (e) => {
        const cmdline = await readFile(`/proc/${e}/cmdline`, 'utf8').catch(() => '');
        if (!isBenchBackend(cmdline)) return;
        const ticks = cpuTicksOf(await readFile(`/proc/${e}/stat`, 'utf8').catch(() => ''), false);
        const pid = Number(e);
        backendTicks.set(pid, Math.max(backendTicks.get(pid) ?? 0, ticks));
      }),
  );
}

/** The machine's busy CPU seconds over all cores since boot (/proc/stat: user, nice, system, irq, softirq, steal); null off Linux. */
async function machineBusySeconds(): Promise<number | null> {
  const stat = await readFile('/proc/stat', 'utf8').catch(() => null);
  const cpu = stat?.split('\n').find((line) => line.startsWith('cpu '));
  if (!cpu) return null;
  const [user, nice, system, , , irq, softirq, steal] = cpu.trim().split(/\s+/).slice(1).map(Number);
  return [user, nice, system, irq, softirq, steal].reduce<number>((sum, v) => sum + (v ?? 0), 0) / TICKS_PER_SECOND;
}

interface CpuReading {
  own: number;
  machine: number | null;
}

async function cpuReading(): Promise<CpuReading> {
  const [own, machine] = await Promise.all([ownCpuSeconds(), machineBusySeconds()]);
  return { own, machine };
}

interface Open {
  label: string;
  startedAt: number;
  start: number[];
  readings: number[];
  cpuAtStart: CpuReading | null;
}

/**
 * Samples the load average every `intervalMs` and keeps it per phase. `phase(label)` ends the
 * current phase (if any) and starts the next; `end()` ends the current one.
 */
export class LoadMonitor {
  readonly cores = availableParallelism();
  readonly phases: Record<string, PhaseLoad> = {};
  private open: Open | null = null;
  private readonly timer: NodeJS.Timeout;
  private pending: Promise<void> = Promise.resolve();

  /** The whole run (every reading, in a phase or not): what a figure measured outside any phase rests on. */
  private readonly run: Open = { label: RUN, startedAt: Date.now(), start: loadavg().map((v) => round(v, 2)), readings: [loadavg()[0]!], cpuAtStart: null };

  constructor(intervalMs = 5_000) {
    this.timer = setInterval(() => {
      const one = loadavg()[0]!;
      this.open?.readings.push(one);
      this.run.readings.push(one);
      void sampleBenchBackends();
    }, intervalMs);
    this.timer.unref();
    const run = this.run;
    this.pending = cpuReading().then((cpu) => {
      run.cpuAtStart = cpu;
    });
  }

  /** The phase now running (figures are tagged with it when pushed). */
  get current(): string | null {
    return this.open?.label ?? null;
  }

  /** Ends the current phase and starts `label` (nothing when it is already the current one). */
  phase(label: string): void {
    if (this.open?.label === label) return;
    this.end();
    const open: Open = { label, startedAt: Date.now(), start: loadavg().map((v) => round(v, 2)), readings: [loadavg()[0]!], cpuAtStart: null };
    this.open = open;
    this.run.readings.push(open.readings[0]!);
    this.pending = this.pending.then(async () => {
      open.cpuAtStart = await cpuReading();
    });
  }

  /** Ends the current phase. */
  end(): void {
    const open = this.open;
    if (!open) return;
    this.open = null;
    this.close(open);
  }

  private close(open: Open): void {
    const end = loadavg();
    if (open !== this.run) this.run.readings.push(end[0]!);
    const endedAt = Date.now();
    const readings = [...open.readings, end[0]!];
    const seconds = (endedAt - open.startedAt) / 1000;
    const phase: PhaseLoad = {
      start: open.start,
      end: end.map((v) => round(v, 2)),
      max1: round(Math.max(...readings), 2),
      samples: readings.length,
      seconds: round(seconds),
      ownCpuCores: null,
      othersCpuCores: null,
      contended: isContended(readings, this.cores),
    };
    this.phases[open.label] = phase;
    this.pending = this.pending.then(async () => {
      const cpu = await cpuReading();
      const start = open.cpuAtStart;
      if (start === null || seconds <= 0) return;
      const own = (cpu.own - start.own) / seconds;
      phase.ownCpuCores = round(own, 2);
      if (cpu.machine !== null && start.machine !== null) phase.othersCpuCores = round(Math.max(0, (cpu.machine - start.machine) / seconds - own), 2);
      phase.contended = isContended(readings, this.cores, phase.othersCpuCores);
    });
  }

  /** Ends the current phase and the whole run's record (`run`), stops sampling and settles the CPU readings. */
  async stop(): Promise<Record<string, PhaseLoad>> {
    this.end();
    this.close(this.run);
    clearInterval(this.timer);
    await this.pending;
    return this.phases;
  }

  /** The phases that were contended, in the order they ran (not the whole run's record). */
  contendedPhases(): string[] {
    return Object.entries(this.phases)
      .filter(([p, l]) => p !== RUN && l.contended)
      .map(([p]) => p);
  }
}

/** The RSS sampler, its phases also marking the load monitor's (so bench.ts marks each phase once). */
export function withLoad(rss: RssSampler, load: LoadMonitor): RssSampler {
  return {
    phase(label) {
      rss.phase(label);
      load.phase(label);
    },
    stop: () => rss.stop(),
  };
}
