import type { MirrorSource } from '@/lib/mirror/types';

/**
 * Tests only: wraps the sources of refreshes so that the systems being read at any moment are
 * known (a system is in flight from its first request until its last list ended): the most at
 * once, and the order they started in.
 */
export function inFlightTracker() {
  const open = new Map<string, number>();
  let most = 0;
  const started: string[] = [];
  const enter = (deviceId: string) => {
    const n = open.get(deviceId) ?? 0;
    if (n === 0 && !started.includes(deviceId)) started.push(deviceId);
    open.set(deviceId, n + 1);
    most = Math.max(most, [...open.values()].filter((v) => v > 0).length);
  };
  const leave = (deviceId: string) => open.set(deviceId, (open.get(deviceId) ?? 1) - 1);
  const wrap = (base: MirrorSource): MirrorSource => {
    const list = <K extends 'reservations' | 'resources' | 'timeSchedules' | 'userGroups'>(kind: K) =>
      async function* (deviceId: string, options?: Parameters<MirrorSource[K]>[1]) {
        enter(deviceId);
        try {
          yield* base[kind](deviceId, options) as AsyncIterable<never>;
        } finally {
          leave(deviceId);
        }
      } as MirrorSource[K];
    return {
      reservations: list('reservations'),
      resources: list('resources'),
      timeSchedules: list('timeSchedules'),
      userGroups: list('userGroups'),
      ...(base.users
        ? {
            users: async (deviceId: string) => {
              enter(deviceId);
              try {
                return await base.users!(deviceId);
              } finally {
                leave(deviceId);
              }
            },
          }
        : {}),
    };
  };
  return { wrap, most: () => most, started: () => [...started], inFlight: () => [...open.values()].filter((v) => v > 0).length };
}
