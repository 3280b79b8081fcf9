// Child processes of a benchmark run: started in their own process group, every one stopped by
// its id when the run ends (normally, on error, or on Ctrl-C), and sampled for memory.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

export interface Tracked {
  name: string;
  child: ChildProcess;
  pid: number;
  /** Everything the process printed, for error messages. */
  output: () => string;
  exited: Promise<number | null>;
}

const running = new Set<Tracked>();

/** Starts a command in a new process group; stdout and stderr go to `logFile` and a ring buffer. */
export function startProcess(name: string, command: string, args: string[], options: SpawnOptions & { logFile: string }): Tracked {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`${name} did not start`);
  const log = createWriteStream(options.logFile);
  let tail = '';
  const keep = (chunk: Buffer) => {
    log.write(chunk);
    tail = (tail + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const tracked: Tracked = { name, child, pid: child.pid, output: () => tail, exited };
  running.add(tracked);
  void exited.then(() => {
    running.delete(tracked);
    log.end();
  });
  return tracked;
}

/** Runs a command to completion; rejects with its output on a non-zero exit. */
export async function runToEnd(name: string, command: string, args: string[], options: SpawnOptions & { logFile: string; input?: string }): Promise<string> {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`${name} did not start`);
  const tracked: Tracked = { name, child, pid: child.pid, output: () => '', exited: new Promise(() => undefined) };
  running.add(tracked);
  const log = createWriteStream(options.logFile);
  let stdout = '';
  let all = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString('utf8');
    all += c.toString('utf8');
    log.write(c);
  });
  child.stderr?.on('data', (c: Buffer) => {
    all += c.toString('utf8');
    log.write(c);
  });
  child.stdin?.end(options.input ?? '');
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  running.delete(tracked);
  log.end();
  if (code !== 0) throw new Error(`${name} failed (exit ${code}):\n${all.slice(-4000)}`);
  return stdout;
}

/** Stops one process group: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopProcess(p: Tracked, graceMs = 5_000): Promise<void> {
  if (!running.has(p)) return;
  try {
    process.kill(-p.pid, 'SIGTERM');
  } catch {
    running.delete(p);
    return;
  }
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
  if ((await Promise.race([p.exited, timer])) === 'timeout') {
    try {
      process.kill(-p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  running.delete(p);
}

/** Stops every process this run started, newest first. */
export async function stopAll(): Promise<void> {
  for (const p of [...running].reverse()) await stopProcess(p);
}

let stopping = false;
/** On Ctrl-C or termination, stop the children before exiting. */
export function stopChildrenOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.error(`\nbench: ${signal}, stopping child processes`);
      void stopAll().finally(() => process.exit(130));
    });
  }
}

async function childrenOf(pid: number): Promise<number[]> {
  const out: number[] = [];
  try {
    for (const task of await readdir(`/proc/${pid}/task`)) {
      const text = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '');
      for (const c of text.trim().split(/\s+/)) if (c) out.push(Number(c));
    }
  } catch {
    // process gone
  }
  return out;
}

async function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

/** The process and all its descendants. */
export async function processTree(pid: number): Promise<number[]> {
  const all = [pid];
  for (let i = 0; i < all.length; i += 1) all.push(...(await childrenOf(all[i]!)));
  return all;
}

export interface RssSampler {
  /** Starts a new phase: the tree's peak RSS is also kept per phase, to tell where memory goes. */
  phase(label: string): void;
  stop(): Promise<{ peakTreeRssMb: number; peakHwmMb: number; samples: number; byPhaseMb: Record<string, number> }>;
}

/**
 * Polls the resident set size of a process tree (VmRSS summed) every `intervalMs`, and each
 * process's own high-water mark (VmHWM), keeping the peaks.
 */
export function sampleRss(pid: number, intervalMs = 100): RssSampler {
  let peakTree = 0;
  let peakHwm = 0;
  let samples = 0;
  let active = true;
  let current = 'start';
  const byPhase: Record<string, number> = {};
  const loop = (async () => {
    while (active) {
      const pids = await processTree(pid);
      let sum = 0;
      for (const p of pids) {
        sum += await statusKb(p, 'VmRSS');
        peakHwm = Math.max(peakHwm, await statusKb(p, 'VmHWM'));
      }
      peakTree = Math.max(peakTree, sum);
      byPhase[current] = Math.max(byPhase[current] ?? 0, sum);
      samples += 1;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    phase(label) {
      current = label;
    },
    async stop() {
      active = false;
      await loop;
      const byPhaseMb = Object.fromEntries(Object.entries(byPhase).map(([k, v]) => [k, Math.round(v / 102.4) / 10]));
      return { peakTreeRssMb: peakTree / 1024, peakHwmMb: peakHwm / 1024, samples, byPhaseMb };
    },
  };
}
