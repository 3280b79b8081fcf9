import { describe, expect, it } from 'vitest';
import type { MailFacts } from '@/lib/db/schema/mail';
import { veventsOf } from '@/tests/ical';
import { escapeHtml, renderMail, type MailInput } from './render';

const reservationId = '5b0d6f0e-8a5e-4c1a-9a43-2f7b1f0c1d11';
const facts = (start: string, end: string, extra: Partial<MailFacts> = {}): MailFacts => ({
  systemName: 'Ekhagen',
  timeZone: 'Europe/Stockholm',
  resourceId: 'r1',
  resourceName: 'Tvättstuga 1',
  startTime: start,
  endTime: end,
  arrangedBy: 'Maja Manager',
  residentApartment: '1102',
  ...extra,
});
const input = (overrides: Partial<MailInput> = {}): MailInput => ({
  kind: 'booked',
  locale: 'sv',
  reservationId,
  // 07:00–10:00 in Stockholm in winter (UTC+1).
  facts: facts('2026-01-13T06:00:00.000Z', '2026-01-13T09:00:00.000Z'),
  recipient: 'anna@example.com',
  recipientName: 'Anna Andersson',
  from: 'Tvättportalen <no-reply@example.com>',
  createdAt: new Date('2026-01-10T12:00:00Z'),
  ...overrides,
});

describe('renderMail', () => {
  it('writes a booking in Swedish with local times, who arranged it, and a REQUEST calendar file', async () => {
    const mail = await renderMail(input());
    expect(mail.subject).toBe('Tvättbokning: Tvättstuga 1, tisdag 13 januari 07:00–10:00');
    expect(mail.text).toContain('Hej Anna Andersson!');
    expect(mail.text).toContain('När: tisdag 13 januari, 07:00–10:00');
    expect(mail.text).toContain('Ordnat av: Maja Manager');
    expect(mail.text).toContain('Lägenhet: 1102');
    expect(mail.messageId).toBe(`<booked.${reservationId}@example.com>`);
    expect(mail.ics).toMatch(/^METHOD:REQUEST\r?$/m);
    const [event] = veventsOf(mail.ics);
    expect(event?.uid).toBe(`${reservationId}@laundry-portal`);
    expect(event?.start.toISOString()).toBe('2026-01-13T06:00:00.000Z');
    expect(event?.end?.toISOString()).toBe('2026-01-13T09:00:00.000Z');
    expect(event?.status).toBe('CONFIRMED');
  });

  it('shows a summer booking 07:00–10:00 as local time (UTC+2) in English', async () => {
    const mail = await renderMail(input({ locale: 'en', facts: facts('2026-07-14T05:00:00.000Z', '2026-07-14T08:00:00.000Z') }));
    expect(mail.subject).toBe('Laundry booking: Tvättstuga 1, Tuesday 14 July 07:00–10:00');
    expect(mail.text).toContain('Hello Anna Andersson,');
    expect(mail.text).toContain('When: Tuesday 14 July, 07:00–10:00');
    expect(mail.text).toContain('Arranged by: Maja Manager');
    expect(veventsOf(mail.ics)[0]?.start.toISOString()).toBe('2026-07-14T05:00:00.000Z');
  });

  it('cancels with METHOD:CANCEL, STATUS:CANCELLED, a higher SEQUENCE and the same UID', async () => {
    const booked = await renderMail(input());
    const cancelled = await renderMail(input({ kind: 'cancelled' }));
    expect(cancelled.subject).toMatch(/^Bokning avbokad: /);
    expect(cancelled.ics).toMatch(/^METHOD:CANCEL\r?$/m);
    const [b] = veventsOf(booked.ics);
    const [c] = veventsOf(cancelled.ics);
    expect(c?.uid).toBe(b?.uid);
    expect(c?.status).toBe('CANCELLED');
    expect(Number(c?.sequence)).toBeGreaterThan(Number(b?.sequence));
    expect(cancelled.messageId).not.toBe(booked.messageId);
  });

  it("tells a closure's reason", async () => {
    const mail = await renderMail(input({ kind: 'closed', locale: 'en', facts: facts('2026-01-13T06:00:00.000Z', '2026-01-13T09:00:00.000Z', { reason: 'Water damage' }) }));
    expect(mail.subject).toMatch(/^Booking cancelled, room closed: /);
    expect(mail.text).toContain('because the room is closed');
    expect(mail.text).toContain('Reason: Water damage');
    expect(mail.html).toContain('Reason: Water damage');
  });

  it('escapes names from upstream in the HTML', async () => {
    const mail = await renderMail(
      input({ recipientName: '<script>alert(1)</script>', facts: facts('2026-01-13T06:00:00.000Z', '2026-01-13T09:00:00.000Z', { arrangedBy: 'Bo "B" & <b>Co</b>' }) }),
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>Co</b>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('Bo &quot;B&quot; &amp; &lt;b&gt;Co&lt;/b&gt;');
    expect(escapeHtml(`'`)).toBe('&#39;');
  });
});
