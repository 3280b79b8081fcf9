// Keyboard movement in the slot grid, kept pure so the index math is tested without a browser.

export interface GridPosition {
  /** Day column, 0 = Monday. */
  day: number;
  /** Index of the slot within its day, in start order. */
  index: number;
}

/** The keys the grid handles itself; others (Tab, Enter, Space) keep their native meaning. */
export const GRID_KEYS = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown'] as const;
export type GridKey = (typeof GRID_KEYS)[number];

export function isGridKey(key: string): key is GridKey {
  return (GRID_KEYS as readonly string[]).includes(key);
}

/**
 * Where focus goes from `from` on `key`. `columns[day]` lists the start minutes of that day's
 * slots in order. Up/Down move within a day; Left/Right go to the nearest day that has slots,
 * landing on the slot whose start time is closest (earlier wins a tie); Home/End go to the
 * first/last slot of the day; PageUp/PageDown to the first/last day with slots. Returns null
 * when focus stays put (an edge, or an unknown key).
 */
export function moveInGrid(columns: readonly (readonly number[])[], from: GridPosition, key: string): GridPosition | null {
  const column = columns[from.day];
  const current = column?.[from.index];
  if (column === undefined || current === undefined) return null;
  switch (key) {
    case 'ArrowUp':
      return from.index > 0 ? { day: from.day, index: from.index - 1 } : null;
    case 'ArrowDown':
      return from.index < column.length - 1 ? { day: from.day, index: from.index + 1 } : null;
    case 'Home':
      return from.index > 0 ? { day: from.day, index: 0 } : null;
    case 'End':
      return from.index < column.length - 1 ? { day: from.day, index: column.length - 1 } : null;
    case 'ArrowLeft':
    case 'ArrowRight': {
      const step = key === 'ArrowLeft' ? -1 : 1;
      for (let day = from.day + step; day >= 0 && day < columns.length; day += step) {
        const target = columns[day];
        if (target && target.length > 0) return { day, index: closestIndex(target, current) };
      }
      return null;
    }
    case 'PageUp':
    case 'PageDown': {
      const days = columns.map((c, day) => (c.length > 0 ? day : -1)).filter((day) => day >= 0);
      const day = key === 'PageUp' ? days[0] : days[days.length - 1];
      if (day === undefined || day === from.day) return null;
      return { day, index: closestIndex(columns[day]!, current) };
    }
    default:
      return null;
  }
}

function closestIndex(starts: readonly number[], minute: number): number {
  let best = 0;
  for (let i = 1; i < starts.length; i++) {
    if (Math.abs(starts[i]! - minute) < Math.abs(starts[best]! - minute)) best = i;
  }
  return best;
}
