import 'server-only';
import { getReservationDeps } from '@/lib/reservations/live-deps';
// eslint-disable-next-line import-x/no-restricted-paths -- live wiring, moved to the composition root (lib/wiring.ts) in the next commit
import { portalViewDeps } from '@/lib/views/live-deps';
import type { ClosureDeps } from './closures';
import { startClosureJob } from './worker';

/** The portal's real wiring of lib/closures: lib/reservations' and the mirror's source. */
export async function getClosureDeps(): Promise<ClosureDeps> {
  const [reservations, views] = await Promise.all([getReservationDeps(), portalViewDeps()]);
  const deps: ClosureDeps = { ...reservations, source: views.source };
  deps.startJob = (closureId) => startClosureJob(deps, closureId);
  return deps;
}
