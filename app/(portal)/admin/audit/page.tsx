import type { Metadata } from 'next';
import Link from 'next/link';
import { mutedTextClass } from '@/components/ui/styles';
import { listAudit } from '@/lib/admin/audit';
import { describeAuditEntry } from '@/lib/admin/audit-wording';
import { requirePageAdmin } from '@/lib/auth/session';
import { getDb } from '@/lib/db';

export const metadata: Metadata = { title: 'Audit log' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const linkClass = 'rounded-md px-3 py-2 text-sm font-medium text-brand-600 underline hover:bg-slate-100 dark:text-brand-100 dark:hover:bg-slate-800';

// Times in UTC, said so: admins may sit in another zone than the systems they manage.
const formatTime = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export default async function AuditPage({ searchParams }: Props) {
  await requirePageAdmin('/admin/audit');
  const raw = (await searchParams).page;
  const requested = Number(typeof raw === 'string' ? raw : '1');
  const { entries, page, pageCount, total } = await listAudit((await getDb()).db, Number.isSafeInteger(requested) ? requested : 1);
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">Audit log</h1>
      <p className={mutedTextClass}>
        What admins changed, newest first: systems connected, disconnected and set up, and accounts created, deactivated, reactivated or
        deleted, with their passwords and systems. {total} entr{total === 1 ? 'y' : 'ies'}.
      </p>
      {entries.length === 0 ? (
        <p className={mutedTextClass}>{total === 0 ? 'Nothing recorded yet.' : 'No entries on this page.'}</p>
      ) : (
        // Focusable and named: a narrow screen scrolls the table sideways, also by keyboard.
        <div tabIndex={0} role="region" aria-label="Audit log entries" className="overflow-x-auto rounded-lg border border-slate-300 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500 dark:border-slate-700">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Admin actions, page {page} of {pageCount}, newest first</caption>
            <thead className="border-b border-slate-200 dark:border-slate-700">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">When</th>
                <th scope="col" className="px-3 py-2 font-medium">Who</th>
                <th scope="col" className="px-3 py-2 font-medium">What</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} className="border-b border-slate-100 align-top last:border-0 dark:border-slate-800">
                  <td className="whitespace-nowrap px-3 py-2">
                    <time dateTime={e.createdAt.toISOString()}>{formatTime(e.createdAt)}</time>
                  </td>
                  <td className="px-3 py-2">{e.actorName}</td>
                  <td className="px-3 py-2">{describeAuditEntry(e)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pageCount > 1 ? (
        <nav aria-label="Audit log pages" className="flex flex-wrap items-center gap-3">
          {page > 1 ? <Link href={`/admin/audit?page=${page - 1}`} className={linkClass}>Newer entries</Link> : null}
          <p className={mutedTextClass}>Page {page} of {pageCount}</p>
          {page < pageCount ? <Link href={`/admin/audit?page=${page + 1}`} className={linkClass}>Older entries</Link> : null}
        </nav>
      ) : null}
    </div>
  );
}
