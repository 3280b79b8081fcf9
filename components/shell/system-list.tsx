import { useTranslations } from 'next-intl';
import Link from 'next/link';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { termClass } from '@/components/ui/styles';
import type { SystemPublic } from '@/lib/systems/schemas';

const STATUS_TONE: Record<SystemPublic['status'], BadgeTone> = { active: 'success', error: 'danger', disconnected: 'neutral' };

export function StatusBadge({ status }: { status: SystemPublic['status'] }) {
  const t = useTranslations('common');
  return <Badge tone={STATUS_TONE[status]}>{t('systemStatus', { status })}</Badge>;
}

/** Systems as a list of cards: readable at 375 px without horizontal scrolling. */
export function SystemList({ systems, label }: { systems: SystemPublic[]; label: string }) {
  const t = useTranslations('common');
  return (
    <ul aria-label={label} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {systems.map((s) => (
        <Card as="li" key={s.deviceId}>
          <h2 className="font-medium">
            <Link
              href={`/systems/${s.deviceId}`}
              className="text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 dark:text-blue-300"
            >
              {s.name}
            </Link>
          </h2>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className={termClass}>{t('timeZone')}</dt>
            <dd>{s.timeZone}</dd>
            <dt className={termClass}>{t('status')}</dt>
            <dd><StatusBadge status={s.status} /></dd>
          </dl>
        </Card>
      ))}
    </ul>
  );
}
