import { describe, expect, it } from 'vitest';
import { guessResourceKind, isResourceKind } from './resource-kind';

describe('guessResourceKind', () => {
  it('reads Swedish and English room names', () => {
    expect(guessResourceKind('Tvättstuga 1', 'Källarplan, 3-timmarspass')).toBe('laundry');
    expect(guessResourceKind('Torkrum', 'Torkrum med torkskåp och mangel')).toBe('drying');
    expect(guessResourceKind('Drying room B', null)).toBe('drying');
    expect(guessResourceKind('Laundry room', '')).toBe('laundry');
  });

  it('lets the name decide before the description, and drying words before washing words', () => {
    expect(guessResourceKind('Torkrum i tvättstugan')).toBe('drying');
    expect(guessResourceKind('Tvättstuga Gården', 'Torkskåp finns')).toBe('laundry');
    expect(guessResourceKind('Rum 3', 'Torkrum')).toBe('drying');
  });

  it('calls a nameless or unrelated room "other"', () => {
    expect(guessResourceKind(null, null)).toBe('other');
    expect(guessResourceKind('Bastu', 'Relax')).toBe('other');
  });

  it('knows its kinds', () => {
    expect(isResourceKind('drying')).toBe(true);
    expect(isResourceKind('sauna')).toBe(false);
  });
});
