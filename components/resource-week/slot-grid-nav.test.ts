import { describe, expect, it } from 'vitest';
import { isGridKey, moveInGrid } from './slot-grid-nav';

// Mon: 07, 10, 13; Tue: none; Wed: 08:30, 12; Thu: 07, 10, 13, 16, 19; Fri–Sun: none except Sun 22.
const columns = [[420, 600, 780], [], [510, 720], [420, 600, 780, 960, 1140], [], [], [1320]];

describe('moveInGrid', () => {
  it('moves up and down within a day and stops at the ends', () => {
    expect(moveInGrid(columns, { day: 0, index: 0 }, 'ArrowDown')).toEqual({ day: 0, index: 1 });
    expect(moveInGrid(columns, { day: 0, index: 2 }, 'ArrowDown')).toBeNull();
    expect(moveInGrid(columns, { day: 0, index: 1 }, 'ArrowUp')).toEqual({ day: 0, index: 0 });
    expect(moveInGrid(columns, { day: 0, index: 0 }, 'ArrowUp')).toBeNull();
  });

  it('moves across days, skipping empty ones, to the closest start time', () => {
    // Monday 10:00 → Wednesday (Tuesday is empty): 08:30 is 90 min away, 12:00 is 120 → 08:30.
    expect(moveInGrid(columns, { day: 0, index: 1 }, 'ArrowRight')).toEqual({ day: 2, index: 0 });
    // Monday 13:00 → Wednesday 12:00.
    expect(moveInGrid(columns, { day: 0, index: 2 }, 'ArrowRight')).toEqual({ day: 2, index: 1 });
    // Wednesday 12:00 → Thursday 13:00 (60 min) rather than 10:00 (120 min).
    expect(moveInGrid(columns, { day: 2, index: 1 }, 'ArrowRight')).toEqual({ day: 3, index: 2 });
    // Thursday 19:00 → Sunday 22:00, and back.
    expect(moveInGrid(columns, { day: 3, index: 4 }, 'ArrowRight')).toEqual({ day: 6, index: 0 });
    expect(moveInGrid(columns, { day: 6, index: 0 }, 'ArrowLeft')).toEqual({ day: 3, index: 4 });
    expect(moveInGrid(columns, { day: 6, index: 0 }, 'ArrowRight')).toBeNull();
    expect(moveInGrid(columns, { day: 0, index: 0 }, 'ArrowLeft')).toBeNull();
  });

  it('prefers the earlier slot on a tie', () => {
    expect(moveInGrid([[600], [540, 660]], { day: 0, index: 0 }, 'ArrowRight')).toEqual({ day: 1, index: 0 });
  });

  it('handles Home, End, PageUp and PageDown', () => {
    expect(moveInGrid(columns, { day: 3, index: 2 }, 'Home')).toEqual({ day: 3, index: 0 });
    expect(moveInGrid(columns, { day: 3, index: 2 }, 'End')).toEqual({ day: 3, index: 4 });
    expect(moveInGrid(columns, { day: 3, index: 0 }, 'Home')).toBeNull();
    expect(moveInGrid(columns, { day: 3, index: 0 }, 'PageUp')).toEqual({ day: 0, index: 0 });
    expect(moveInGrid(columns, { day: 3, index: 4 }, 'PageDown')).toEqual({ day: 6, index: 0 });
    expect(moveInGrid(columns, { day: 6, index: 0 }, 'PageDown')).toBeNull();
  });

  it('ignores other keys and positions outside the grid', () => {
    expect(moveInGrid(columns, { day: 0, index: 0 }, 'Enter')).toBeNull();
    expect(moveInGrid(columns, { day: 1, index: 0 }, 'ArrowDown')).toBeNull();
    expect(moveInGrid(columns, { day: 9, index: 0 }, 'ArrowLeft')).toBeNull();
    expect(isGridKey('ArrowLeft')).toBe(true);
    expect(isGridKey('Tab')).toBe(false);
  });
});
