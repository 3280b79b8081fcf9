// The previous committed run (bench/results.json in git), so each figure prints beside it and a
// regression shows in the table rather than in someone's memory.
import { execFileSync } from 'node:child_process';

export interface RecordedFigure {
  key: string;
  value: number | null;
  unit: string;
  /** Lower is better for times, sizes and memory; higher for rates and scores. */
  met?: boolean | null;
  /** Measured while the machine's 1-minute load was above its core count (scripts/bench/load.ts). */
  contended?: boolean;
}

export interface PreviousRun {
  ranAt: string | null;
  commit: string | null;
  loadAverageAtStart: number[] | null;
  byKey: Map<string, RecordedFigure>;
}

/** Units whose larger value is better; every other unit (ms, s, MB, kB, ×) is better smaller. */
const HIGHER_IS_BETTER = new Set(['rows/s', 'k rows/s', '', 'req/s']);

/** The results committed at HEAD (what the last person measured), or null when there are none. */
export function readCommittedResults(root: string, file = 'bench/results.json'): PreviousRun | null {
  let text: string;
  try {
    text = execFileSync('git', ['show', `HEAD:${file}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
  return parseResults(text);
}

export function parseResults(text: string): PreviousRun | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const record = data as { ranAt?: unknown; commit?: unknown; figures?: unknown; details?: { machine?: { loadAverageAtStart?: unknown } } };
  const byKey = new Map<string, RecordedFigure>();
  for (const f of Array.isArray(record.figures) ? record.figures : []) {
    if (typeof f !== 'object' || f === null) continue;
    const { key, value, unit, contended } = f as Record<string, unknown>;
    if (typeof key !== 'string') continue;
    byKey.set(key, { key, value: typeof value === 'number' && Number.isFinite(value) ? value : null, unit: typeof unit === 'string' ? unit : '', contended: contended === true });
  }
  const load = record.details?.machine?.loadAverageAtStart;
  return {
    ranAt: typeof record.ranAt === 'string' ? record.ranAt : null,
    commit: typeof record.commit === 'string' ? record.commit : null,
    loadAverageAtStart: Array.isArray(load) && load.every((v) => typeof v === 'number') ? (load) : null,
    byKey,
  };
}

/**
 * "12.3 ms (−8 %)": the previous value and how this run compares, with "worse" marked when the
 * change is against the figure's direction by more than `tolerance` (runs on a shared machine vary).
 * Only uncontended figures are compared: when either was measured on a machine loaded beyond its
 * cores, the previous value is printed and marked so, never called worse (or better).
 */
export function compareFigure(
  current: { value: number | null; unit: string; target?: string; contended?: boolean },
  previous: RecordedFigure | undefined,
  tolerance = 0.1,
): { text: string; worse: boolean } {
  if (!previous || previous.value === null) return { text: '—', worse: false };
  const was = `${previous.value} ${previous.unit}`.trim();
  if (current.value === null) return { text: was, worse: false };
  if (current.contended || previous.contended) {
    const which = current.contended && previous.contended ? 'both contended' : current.contended ? 'this run contended' : 'that run contended';
    return { text: `${was} (not compared: ${which})`, worse: false };
  }
  if (previous.value === 0) return { text: was, worse: false };
  const change = (current.value - previous.value) / Math.abs(previous.value);
  const pct = Math.round(change * 100);
  const sign = pct > 0 ? '+' : pct < 0 ? '−' : '±';
  // A target says the direction ("≥ 100 ×" a speed-up, "≤ 1.1" a ratio); without one, the unit does.
  const target = current.target?.trim() ?? '';
  const higherBetter = target.startsWith('≥') ? true : target.startsWith('≤') ? false : HIGHER_IS_BETTER.has(current.unit);
  const worse = higherBetter ? change < -tolerance : change > tolerance;
  return { text: `${was} (${sign}${Math.abs(pct)} %${worse ? ', worse' : ''})`, worse };
}

/** The commit measured, with "+dirty" when the working tree has changes. */
export function currentCommit(root: string): string | null {
  try {
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== '';
    return dirty ? `${head}+dirty` : head;
  } catch {
    return null;
  }
}
