import 'server-only';
import { singleton } from '@/lib/singleton';

/**
 * The in-process nudge from a new outbox row to this process's mail worker. The row is written
 * inside its transaction, so the kick waits a moment for the commit; a kick that comes too early
 * finds nothing, and the worker's poll sends the row a few seconds later anyway.
 */
const state = () => singleton('mail-kick', () => ({ worker: null as null | (() => void) }));

export function setMailKickTarget(worker: (() => void) | null): void {
  state().worker = worker;
}

export function scheduleMailKick(delayMs = 150): void {
  const { worker } = state();
  if (!worker) return;
  setTimeout(worker, delayMs).unref();
  // Once more, for a transaction that took longer to commit.
  setTimeout(worker, delayMs + 1_000).unref();
}
