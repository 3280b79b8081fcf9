import 'server-only';
import { ICalCalendar, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { createTranslator } from 'next-intl';
import type { Locale } from '@/lib/i18n/config';
import { loadMessages } from '@/lib/i18n/messages';
import type { MailFacts, MailKind } from '@/lib/db/schema/mail';
import { eventUid } from '@/lib/calendar/ical';
import { formatClock, formatDayLabel, apartmentNumber } from '@/lib/i18n/format';
import { wallClock } from '@/lib/schedule/zoned';

/** What one outbox row becomes: pure, so the E-mails page renders exactly what was (or would be) sent. */
export interface MailInput {
  kind: MailKind;
  locale: Locale;
  reservationId: string;
  facts: MailFacts;
  recipient: string | null;
  recipientName: string | null;
  /** MAIL_FROM: an address or "Name <address>". */
  from: string;
  /** DTSTAMP of the calendar file: when the outbox row was written (stable across resends). */
  createdAt: Date;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  /** The iCalendar file (METHOD:REQUEST for a booking, METHOD:CANCEL for a cancellation). */
  ics: string;
  icsMethod: 'REQUEST' | 'CANCEL';
  /** Deterministic per (reservation, kind), with angle brackets: a resend after a crash is recognizable. */
  messageId: string;
}

/** The bare address of "Name <address>" or "address". */
export function addressOf(mailbox: string): string {
  const named = /<([^<>]+)>\s*$/.exec(mailbox);
  return (named?.[1] ?? mailbox).trim();
}

export function messageIdFor(kind: MailKind, reservationId: string, from: string): string {
  const domain = addressOf(from).split('@')[1] || 'localhost';
  return `<${kind}.${reservationId.toLowerCase()}@${domain}>`;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

type Translate = (key: string, values?: Record<string, string>) => string;

async function translator(locale: Locale): Promise<Translate> {
  const t = createTranslator({ locale, messages: await loadMessages(locale) });
  return t as unknown as Translate;
}

export async function renderMail(input: MailInput): Promise<RenderedMail> {
  const { kind, locale, facts } = input;
  const t = await translator(locale);
  const startMs = Date.parse(facts.startTime);
  const endMs = Date.parse(facts.endTime);
  const room = facts.resourceName ?? t('mail.unnamedRoom');
  const when = {
    day: formatDayLabel(wallClock(startMs, facts.timeZone), locale),
    start: formatClock(startMs, facts.timeZone),
    end: formatClock(endMs, facts.timeZone),
  };
  const subject = t(`mail.${kind}.subject`, { room, ...when });
  const lines: string[] = [
    input.recipientName ? t('mail.greeting', { name: input.recipientName }) : t('mail.greetingAnonymous'),
    '',
    t(`mail.${kind}.intro`, { room }),
    '',
    t('mail.when', when),
    t('mail.room', { room }),
    t('mail.system', { system: facts.systemName }),
  ];
  if (facts.residentApartment) lines.push(t('mail.apartment', { apartment: apartmentNumber(facts.residentApartment) }));
  if (facts.arrangedBy) lines.push(t('mail.arrangedBy', { name: facts.arrangedBy }));
  if (kind === 'closed' && facts.reason) lines.push(t('mail.reason', { reason: facts.reason }));
  const calendar = kind === 'booked' ? t('mail.calendarBooked') : t('mail.calendarCancelled');
  const footer = t('mail.footer');
  const text = [...lines, '', calendar, '', '-- ', footer, ''].join('\n');
  // Every line is escaped after translation: names and reasons come from upstream and from managers.
  const paragraphs = [lines[0] ?? '', lines[2] ?? ''].map((l) => `<p>${escapeHtml(l)}</p>`);
  const details = lines.slice(4).map((l) => `<li>${escapeHtml(l)}</li>`);
  const html = [
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #111">',
    ...paragraphs,
    `<ul>${details.join('')}</ul>`,
    `<p>${escapeHtml(calendar)}</p>`,
    `<p style="color: #555; font-size: 0.875em">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('\n');
  const icsMethod = kind === 'booked' ? 'REQUEST' : 'CANCEL';
  const ics = buildIcs(input, { startMs, endMs, summary: t('mail.calendarSummary', { room }), method: icsMethod });
  return { subject, text, html, ics, icsMethod, messageId: messageIdFor(kind, input.reservationId, input.from) };
}

/** One VEVENT in UTC, with the same UID for a booking and its cancellation (SEQUENCE 0, then 1). */
function buildIcs(input: MailInput, e: { startMs: number; endMs: number; summary: string; method: 'REQUEST' | 'CANCEL' }): string {
  const cancel = e.method === 'CANCEL';
  const calendar = new ICalCalendar({
    prodId: { company: 'laundry-portal', product: 'resident-mail' },
    method: cancel ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  const organizer = addressOf(input.from);
  calendar.createEvent({
    id: eventUid(input.reservationId),
    start: new Date(e.startMs),
    end: new Date(e.endMs),
    stamp: input.createdAt,
    summary: e.summary,
    location: [input.facts.resourceName, input.facts.systemName].filter(Boolean).join(', '),
    sequence: cancel ? 1 : 0,
    status: cancel ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: input.facts.systemName, email: organizer },
    attendees: input.recipient ? [{ email: input.recipient, name: input.recipientName ?? undefined }] : [],
  });
  return calendar.toString();
}
