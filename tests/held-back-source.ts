import type { MirrorPage, MirrorSource } from '@/lib/mirror/types';
import type { Reservation } from '@/lib/service';

export const itemsOf = <T>(page: MirrorPage<T>): readonly T[] => (Array.isArray(page) ? (page as readonly T[]) : (page as { items: readonly T[] }).items);

/**
 * A mirror source whose reservations stop after their first page until released (or fail then,
 * with `fail`): a load whose structure is in and whose reservations are not, or a refresh whose
 * upstream stalls mid-way.
 */
export function heldBack(base: MirrorSource, options: { fail?: boolean } = {}) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const firstPage: Reservation[] = [];
  const source: MirrorSource = {
    ...base,
    async *reservations(deviceId) {
      let n = 0;
      for await (const page of base.reservations(deviceId)) {
        n += 1;
        if (n === 1) firstPage.push(...itemsOf(page));
        yield page;
        if (n === 1) {
          await gate;
          if (options.fail) throw new Error('the reservations went away');
        }
      }
    },
  };
  return { source, release, firstPage };
}
