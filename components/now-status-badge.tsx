import type { NowStatus } from '@/lib/schedule';
import { Badge } from './ui/badge';

const STYLES: Record<NowStatus['kind'], { className: string; icon: string }> = {
  free: {
    className: 'border-emerald-700 bg-emerald-50 text-emerald-950 dark:border-emerald-400 dark:bg-emerald-950 dark:text-emerald-50',
    icon: '○',
  },
  'in-use': {
    className: 'border-brand-700 bg-brand-600 text-white dark:border-blue-300 dark:bg-blue-800 dark:text-white',
    icon: '●',
  },
  maintenance: {
    className: 'border-amber-700 bg-amber-100 text-amber-950 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-50',
    icon: '⚠',
  },
};

/** What is happening on a resource now: "Free", "In use until 10:00", "Maintenance until 14:30". */
export function NowStatusBadge({ status, showOwner = false }: { status: NowStatus; showOwner?: boolean }) {
  const style = STYLES[status.kind];
  const owner = showOwner && status.ownerLabel ? ` (${status.ownerLabel})` : '';
  return (
    <Badge data-kind={status.kind} size="sm" className={`border ${style.className}`}>
      <span aria-hidden="true">{style.icon}</span>
      <span>
        <span className="sr-only">Now: </span>
        {status.text}
        {owner}
      </span>
    </Badge>
  );
}
