import { expect, it } from 'vitest';
import { issueText } from '@/tests/message-text';
import { closureInputSchema } from './schemas';

const room = '11111111-1111-4111-8111-111111111111';
const valid = { resourceIds: [room], from: '2026-11-24T13:00', to: '2026-11-24T17:00', reason: '  Pipe repair ' };

const firstIssue = (input: unknown) => {
  const parsed = closureInputSchema.safeParse(input);
  if (parsed.success) throw new Error('expected a refusal');
  return { path: parsed.error.issues[0]!.path.join('.'), text: issueText(parsed.error.issues[0]!) };
};

it('accepts rooms, a local period and a reason, trimmed, rooms lower-cased and once each', () => {
  expect(closureInputSchema.parse({ ...valid, resourceIds: [room.toUpperCase(), room] })).toEqual({ ...valid, reason: 'Pipe repair' });
});

it('refuses no rooms, a room that is no id, and unknown fields', () => {
  expect(firstIssue({ ...valid, resourceIds: [] })).toEqual({ path: 'resourceIds', text: 'must have at least 1 item' });
  expect(firstIssue({ ...valid, resourceIds: ['x'] })).toEqual({ path: 'resourceIds.0', text: 'must be a UUID' });
  expect(firstIssue({ ...valid, extra: 1 })).toMatchObject({ text: 'unknown field: extra' });
});

it('refuses a blank, too long or multi-line reason', () => {
  expect(firstIssue({ ...valid, reason: '   ' })).toEqual({ path: 'reason', text: 'must be at least 1 character' });
  expect(firstIssue({ ...valid, reason: 'x'.repeat(201) })).toEqual({ path: 'reason', text: 'must be at most 200 characters' });
  expect(closureInputSchema.safeParse({ ...valid, reason: ` ${'x'.repeat(200)} ` }).success).toBe(true);
  expect(firstIssue({ ...valid, reason: 'a\nb' }).path).toBe('reason');
  expect(firstIssue({ ...valid, reason: 'a\u0000b' }).text).toMatch(/control characters/);
});

it('refuses a missing or overlong period field (its form is checked against the zone later)', () => {
  expect(firstIssue({ ...valid, from: undefined })).toEqual({ path: 'from', text: 'is required' });
  expect(firstIssue({ ...valid, to: 'x'.repeat(41) }).path).toBe('to');
});
