/** A figure of the bench's table (scripts/bench.ts), as each phase's module makes it. */
export interface BenchFigure {
  key: string;
  label: string;
  value: number | null;
  unit: string;
  target: string;
  met: boolean | null;
  note?: string;
}
