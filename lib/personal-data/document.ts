import 'server-only';
import { createTranslator } from 'next-intl';
import type { Locale } from '@/lib/i18n/config';
import { formatClock, formatDate } from '@/lib/i18n/format';
import { loadMessages } from '@/lib/i18n/messages';
import type { PersonalDataExtract } from './extract';

// The two downloads of an extract, made from the same object: the JSON is the object itself
// (stable keys, ISO times), the readable document a printable HTML page in the reader's language
// with each section explained and its retention said (the wording of docs/personal-data.md).

export const EXTRACT_FILES = ['extract.html', 'extract.json'] as const;
export type ExtractFile = (typeof EXTRACT_FILES)[number];

export function isExtractFile(value: string): value is ExtractFile {
  return (EXTRACT_FILES as readonly string[]).includes(value);
}

/** The machine-readable download. */
export function extractJson(extract: PersonalDataExtract): string {
  return `${JSON.stringify(extract, null, 2)}\n`;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (value: string | number | null | undefined): string => String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;color:#111;max-width:60rem;margin:2rem auto;padding:0 1rem}
h1{font-size:1.6rem}h2{font-size:1.3rem;margin-top:2rem;border-bottom:1px solid #999}h3{font-size:1.1rem;margin-bottom:.25rem}
p.explain{margin:.25rem 0}p.kept{margin:.25rem 0;font-style:italic}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #bbb;padding:.25rem .5rem;text-align:left;vertical-align:top}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0}
pre{white-space:pre-wrap;font:inherit;margin:0}.held-by{border:2px solid #555;padding:0 1rem 1rem;margin-top:2rem}
@media print{body{margin:0;max-width:none}h2{break-after:avoid}tr{break-inside:avoid}}`;

/** The readable download: a whole HTML document, printable. */
export async function extractHtml(extract: PersonalDataExtract, locale: Locale): Promise<string> {
  const t = createTranslator({ locale, messages: await loadMessages(locale), namespace: 'personalData.document' });
  const tz = extract.resident.timeZone;
  const when = (value: string | null) => (value ? `${formatDate(Date.parse(value), tz, locale)} ${formatClock(Date.parse(value), tz)}` : t('none'));
  const text = (value: string | null | undefined) => (value ? esc(value) : esc(t('none')));
  const table = (headers: string[], rows: string[][]) =>
    rows.length === 0
      ? `<p>${esc(t('empty'))}</p>`
      : `<table><thead><tr>${headers.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
          .map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`)
          .join('')}</tbody></table>`;
  const section = (key: 'requests' | 'emails' | 'feeds' | 'closures' | 'noShows' | 'audit', body: string) =>
    `<section><h3>${esc(t(`${key}.heading`))}</h3><p class="explain">${esc(t(`${key}.explain`))}</p><p class="kept">${esc(t(`${key}.kept`))}</p>${body}</section>`;
  const { resident, portal, bookingSystem } = extract;
  const who = resident.name || resident.apartment || resident.userId;

  const requests = table(
    [t('col.created'), t('col.what'), t('col.room'), t('col.time'), t('col.status'), t('col.askedBy'), t('col.note'), t('col.history')],
    portal.requests.map((r) => [
      esc(when(r.createdAt)),
      esc(t('kind', { kind: r.kind })),
      text(r.room),
      r.startTime ? esc(`${when(r.startTime)}–${formatClock(Date.parse(r.endTime ?? r.startTime), tz)}`) : esc(t('none')),
      esc(t('requestStatus', { status: r.status })) + (r.errorDescription ? `<br>${esc(r.errorDescription)}` : '') + (r.firstAnswer ? `<br>${esc(r.firstAnswer.message)}` : ''),
      text(r.requestedByName),
      text(r.note),
      [
        ...r.events.map((e) => esc(t('eventLine', { when: when(e.at), status: e.status ?? '–' }))),
        ...r.outcomes.map((o) => esc(t('outcomeLine', { when: when(o.receivedAt), succeeded: o.succeeded === null ? 'unknown' : o.succeeded ? 'yes' : 'no' }))),
        esc(t('recordedAs', { name: r.residentName ?? '–', apartment: r.residentApartment ?? '–' })),
      ].join('<br>'),
    ]),
  );
  const emails = table(
    [t('col.created'), t('col.to'), t('col.subject'), t('col.status'), t('col.text')],
    portal.emails.map((m) => [
      esc(when(m.createdAt)) + (m.sentAt ? `<br>${esc(t('sentAt', { when: when(m.sentAt) }))}` : ''),
      m.recipient ? `${text(m.recipientName)}<br>${esc(m.recipient)}` : esc(t('noAddress')),
      text(m.subject),
      esc(t('mailStatus', { status: m.status })) + (m.lastError ? `<br>${esc(m.lastError)}` : ''),
      m.text ? `<pre>${esc(m.text)}</pre>` : esc(t('none')),
    ]),
  );
  const feeds = table(
    [t('col.created'), t('col.rotated'), t('col.revoked'), t('col.works')],
    portal.calendarFeeds.map((f) => [esc(when(f.createdAt)), esc(when(f.rotatedAt)), esc(when(f.revokedAt)), esc(t('yesNo', { value: f.works ? 'yes' : 'no' }))]),
  );
  const closures = table(
    [t('col.period'), t('col.room'), t('col.reason'), t('col.closedBy'), t('col.yourBookings')],
    portal.closures.map((c) => [
      esc(`${when(c.startsAt)} – ${when(c.endsAt)}`) + (c.liftedAt ? `<br>${esc(t('liftedAt', { when: when(c.liftedAt) }))}` : ''),
      esc(c.rooms.join(', ')),
      esc(c.reason),
      text(c.createdByName),
      c.targets.map((x) => esc(`${when(x.startTime)} (${x.apartment ?? '–'}, ${x.residentName ?? '–'})`)).join('<br>'),
    ]),
  );
  const noShows = table(
    [t('col.time'), t('col.room'), t('col.released')],
    portal.releasedNoShows.map((n) => [esc(when(n.startTime)), text(n.room), esc(when(n.releasedAt))]),
  );
  const audit = table(
    [t('col.when'), t('col.who'), t('col.action'), t('col.detail')],
    portal.audit.map((a) => [esc(when(a.at)), esc(a.actorName), esc(a.action), esc(a.detail ? JSON.stringify(a.detail) : '')]),
  );
  const reservations = table(
    [t('col.time'), t('col.room'), t('col.heldAs'), t('col.status')],
    bookingSystem.reservations.map((r) => [esc(`${when(r.startTime)}–${formatClock(Date.parse(r.endTime), tz)}`), text(r.room), esc(t('heldAs', { heldAs: r.heldAs })), esc(r.status)]),
  );

  const dl = (pairs: [string, string][]) => `<dl>${pairs.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(t('title', { name: who }))}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${esc(t('title', { name: who }))}</h1>
<p>${esc(t('generated', { when: when(extract.generatedAt), timeZone: tz, system: resident.systemName }))}</p>
<p>${esc(t('about'))}</p>
<h2>${esc(t('residentHeading'))}</h2>
${dl([
  [t('field.name'), text(resident.name)],
  [t('field.email'), text(resident.email)],
  [t('field.apartment'), text(resident.apartment)],
  [t('field.system'), esc(resident.systemName)],
  [t('field.userId'), esc(resident.userId)],
])}
${resident.inBookingSystem ? '' : `<p>${esc(t('notInBookingSystem'))}</p>`}
<h2>${esc(t('portalHeading'))}</h2>
<p>${esc(t('portalIntro'))}</p>
${section('requests', requests)}
${section('emails', emails)}
${section('feeds', feeds)}
${section('closures', closures)}
${section('noShows', noShows)}
${section('audit', audit)}
<section class="held-by">
<h2>${esc(t('bookingSystemHeading'))}</h2>
<p>${esc(t('bookingSystemIntro'))}</p>
<h3>${esc(t('bookingSystemUser'))}</h3>
${bookingSystem.user ? dl([[t('field.name'), text(bookingSystem.user.name)], [t('field.email'), text(bookingSystem.user.email)], [t('field.userId'), esc(bookingSystem.user.id)]]) : `<p>${esc(t('empty'))}</p>`}
<h3>${esc(t('bookingSystemApartment'))}</h3>
${bookingSystem.apartment ? dl([[t('field.apartment'), text(bookingSystem.apartment.name)], [t('field.apartmentNumber'), text(bookingSystem.apartment.apartmentId)], [t('field.reference'), text(bookingSystem.apartment.referenceId)]]) : `<p>${esc(t('empty'))}</p>`}
<h3>${esc(t('bookingSystemReservations'))}</h3>
${reservations}
${bookingSystem.unreadableItems.length ? `<p>${esc(t('unreadable', { count: bookingSystem.unreadableItems.length }))}</p>` : ''}
</section>
</main>
</body>
</html>
`;
}
