/**
 * Runs `work` over `items` in order, at most `limit` at a time (at least one): each finished item
 * makes room for the next, so one slow system holds one place, not the whole batch. Stops taking
 * new items once `shouldStop` says so; the ones in hand finish. A failure of one item is its
 * `work`'s to handle (a rejection stops nothing else and is not rethrown).
 */
export async function runBounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>, shouldStop: () => boolean = () => false): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length && !shouldStop()) {
      const item = items[next]!;
      next += 1;
      await work(item).catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}
