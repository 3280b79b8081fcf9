import Link from 'next/link';
import type { SystemPublic } from '@/lib/systems/schemas';

const STATUS_LABEL: Record<SystemPublic['status'], string> = { active: 'Active', error: 'Error', disconnected: 'Disconnected' };
const STATUS_CLASS: Record<SystemPublic['status'], string> = {
  active: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
  error: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
  disconnected: 'bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
};

export function StatusBadge({ status }: { status: SystemPublic['status'] }) {
  return <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[status]}`}>{STATUS_LABEL[status]}</span>;
}

/** Systems as a list of cards: readable at 375 px without horizontal scrolling. */
export function SystemList({ systems, label }: { systems: SystemPublic[]; label: string }) {
  return (
    <ul aria-label={label} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {systems.map((s) => (
        <li key={s.deviceId} className="rounded-lg border border-slate-200 p-4 dark:border-slate-700">
          <h2 className="font-medium">
            <Link
              href={`/systems/${s.deviceId}`}
              className="text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 dark:text-blue-300"
            >
              {s.name}
            </Link>
          </h2>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-500 dark:text-slate-400">Time zone</dt>
            <dd>{s.timeZone}</dd>
            <dt className="text-slate-500 dark:text-slate-400">Status</dt>
            <dd><StatusBadge status={s.status} /></dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}
