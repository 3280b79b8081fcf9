import ical, { type VEvent } from 'node-ical';

/** The VEVENTs of an iCalendar text, read by a real parser (node-ical). */
export function veventsOf(text: string): VEvent[] {
  return Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');
}

/** An event's SUMMARY as text (node-ical gives `{ val, params }` when the property has parameters). */
export function summaryOf(event: VEvent): string {
  const s: unknown = event.summary;
  if (typeof s === 'string') return s;
  if (typeof s === 'object' && s !== null && 'val' in s && typeof s.val === 'string') return s.val;
  return '';
}
