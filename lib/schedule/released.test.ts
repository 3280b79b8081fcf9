import { describe, expect, it } from 'vitest';
import { createTranslator } from 'next-intl';
import * as words from '@/components/resource-week/slot-words';
import { slotVisibleState } from '@/components/resource-week/slot-grid-layout';
import en from '@/messages/en.json';
import sv from '@/messages/sv.json';
import { laundry, reservation } from '@/tests/schedule-fixtures';
import { expandWeek } from './expand';
import { overlayReservations } from './overlay';
import { weekFromKey } from './week';

// The grid shows a released no-show's slot free again, as the service does (issue 35).
const SE = 'Europe/Stockholm';
const week = weekFromKey('2026-W48', SE);
const slots = expandWeek(laundry, week, SE);
const noShow = reservation('2026-11-25T08:00:00Z', '2026-11-25T11:00:00Z', { id: 'no-show' }); // Wed 09:00–12:00
const used = reservation('2026-11-25T11:00:00Z', '2026-11-25T14:00:00Z', { id: 'used', status: 'Used' });
const slotOf = (list: ReturnType<typeof overlayReservations>, id: string) => list.find((s) => s.reservation?.id === id || s.released?.id === id)!;

describe('a released no-show in the grid', () => {
  const overlay = (nowIso: string, activationMinutes: number | null) =>
    overlayReservations(slots, [noShow, used], { now: Date.parse(nowIso), resourceId: 'R1', horizonDays: 28, activationMinutes });

  it('is booked until the window passes, then free and bookable, and says it was released', () => {
    const before = slotOf(overlay('2026-11-25T08:29:00Z', 30), 'no-show');
    expect(before.state).toBe('booked');
    expect(before.released).toBeUndefined();
    const after = slotOf(overlay('2026-11-25T08:30:00Z', 30), 'no-show');
    expect(after).toMatchObject({ state: 'free', reservation: null, reservations: [], isCurrent: true });
    expect(after.released?.id).toBe('no-show');
    // A running slot is never bookable (not-started); the released slot is free, so its state words say so.
    const t = createTranslator({ locale: 'en', messages: en, namespace: 'slot' });
    const ts = createTranslator({ locale: 'sv', messages: sv, namespace: 'slot' });
    expect(words.slotStateText(after, t)).toBe('free, released – not activated');
    expect(words.slotStateText(after, ts)).toBe('ledigt, frisläppt – aktiverades inte');
    expect(slotVisibleState(after).title).toBe('freeReleased');
  });

  it('keeps a used booking and an unused one without a window', () => {
    expect(slotOf(overlay('2026-11-25T12:00:00Z', 30), 'used').state).toBe('used');
    expect(slotOf(overlay('2026-11-25T10:00:00Z', null), 'no-show').state).toBe('booked');
  });

  it('frees a slot a released booking covers only in part; being under way, it is free but not bookable (the service refuses a started slot too)', () => {
    const partial = reservation('2026-11-27T06:00:00Z', '2026-11-27T07:00:00Z', { id: 'partial' }); // Fri 07:00–08:00
    const overlaid = overlayReservations(slots, [partial], { now: Date.parse('2026-11-27T06:20:00Z'), resourceId: 'R1', horizonDays: 28, activationMinutes: 15 });
    expect(overlaid.find((s) => s.released?.id === 'partial')).toMatchObject({ state: 'free', bookable: false, isCurrent: true, startMs: Date.parse('2026-11-27T06:00:00Z') });
    expect(overlaid.filter((s) => s.released)).toHaveLength(1);
  });
});
