import 'server-only';
import { getReservationDeps } from '@/lib/reservations/live-deps';
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
