import { expect, it } from 'vitest';
import { cancellationRefusedFor } from './cancellable-owner';
import { messageText } from '@/tests/message-text';

it("residents' bookings may be cancelled; maintenance windows and unknown owners may not", () => {
  expect(cancellationRefusedFor('User', 'Mon 07:00–10:00')).toBeNull();
  expect(cancellationRefusedFor('Group', 'Mon 07:00–10:00')).toBeNull();
  expect(messageText(cancellationRefusedFor('Service', 'Mon 07:00–10:00')!.message)).toBe('Mon 07:00–10:00 is a maintenance window; it cannot be cancelled here.');
  expect(messageText(cancellationRefusedFor('Unknown', 'Mon 07:00–10:00')!.message)).toMatch(/owner of a kind the portal does not know/);
  expect(messageText(cancellationRefusedFor('Service', 'måndag 24 november kl. 07:00–10:00')!.message, 'sv')).toBe('måndag 24 november kl. 07:00–10:00 är ett underhållsfönster och kan inte avbokas här.');
  expect(cancellationRefusedFor('Robot', 'Mon 07:00–10:00')?.rule).toBe('cancellable-owner');
});
