import 'server-only';
import { singleton } from '@/lib/singleton';

/** Background work of the start that /api/health reports when it gave up. */
export type StartupTask = 'demoConnection' | 'webhookRegistration';

const DESCRIPTION: Record<StartupTask, string> = {
  demoConnection: 'The demo systems could not be connected at start.',
  webhookRegistration: 'The webhook could not be registered with the sandbox at start; booking outcomes will not arrive.',
};

const state = () => singleton('startup-tasks', () => new Map<StartupTask, 'running' | 'done' | 'failed'>());

export function markStartupTask(task: StartupTask, outcome: 'running' | 'done' | 'failed'): void {
  state().set(task, outcome);
}

/** One sentence for each start-up task that gave up. */
export function startupTaskProblems(): string[] {
  return [...state()].filter(([, outcome]) => outcome === 'failed').map(([task]) => DESCRIPTION[task]);
}
