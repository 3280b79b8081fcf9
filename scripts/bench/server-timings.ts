// The Server-Timing header of the bench's portals (SERVER_TIMING=1), collected over many answers.
import { percentile, round, type TimedAnswer } from './http';

/** The Server-Timing parts of many answers (SERVER_TIMING on the bench portal): their medians. */
export class ServerTimings {
  private readonly parts = new Map<string, number[]>();
  add(answer: TimedAnswer): void {
    const header = answer.headers['server-timing'];
    for (const entry of (Array.isArray(header) ? header.join(', ') : (header ?? '')).split(/,\s*/)) {
      const [name] = entry.split(';');
      const dur = /dur=([\d.]+)/.exec(entry)?.[1];
      const count = /desc="(\d+)/.exec(entry)?.[1];
      if (!name || dur === undefined) continue;
      this.push(name, Number(dur));
      if (count !== undefined) this.push(`${name}Statements`, Number(count));
    }
  }
  private push(name: string, value: number): void {
    const list = this.parts.get(name) ?? [];
    list.push(value);
    this.parts.set(name, list);
  }
  has(name: string): boolean {
    return this.parts.has(name);
  }
  medians(): Record<string, number> {
    return Object.fromEntries([...this.parts].map(([name, values]) => [name, round(percentile(values, 50), 2)]));
  }
  /** "handler 2.1 ms (viewer 0.9, view 0.8, …), 2 statements": what the table's note shows. */
  describe(): string {
    const m = this.medians();
    const inner = Object.entries(m).filter(([k]) => k !== 'handler' && !k.endsWith('Statements') && k !== 'db');
    return `handler p50 ${m.handler ?? '?'} ms (${inner.map(([k, v]) => `${k} ${v}`).join(', ')}; db ${m.db ?? '?'} ms in ${m.dbStatements ?? '?'} statements)`;
  }
}
