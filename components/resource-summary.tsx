import Link from 'next/link';
import type { NowStatus, OccupancyStats } from '@/lib/schedule';
import { NowStatusBadge } from './now-status-badge';
import { OccupancyBar } from './occupancy-bar';
import { Card } from './ui/card';
import { mutedTextClass } from './ui/styles';

export interface ResourceSummaryProps {
  name: string;
  description?: string | null;
  /** The resource page. */
  href: string;
  /** This week's occupancy (occupancyByResourceWeek); null while a first load reads the bookings. */
  stats: OccupancyStats | null;
  /** What is happening now (resourceNowStatus); null while a first load reads the bookings. */
  status: NowStatus | null;
  /** Said instead of the occupancy while it is not known ("Bookings are still being read"). */
  loadingText?: string;
  headingLevel?: 2 | 3;
}

/** One resource on the system page: name, what is happening now, and this week's booked share. */
export function ResourceSummary({ name, description, href, stats, status, loadingText, headingLevel = 3 }: ResourceSummaryProps) {
  const Heading = `h${headingLevel}` as 'h3';
  return (
    <Card as="article" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <Heading className="text-base font-semibold">
            <Link
              href={href}
              className="underline-offset-2 hover:underline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:focus-visible:outline-blue-300"
            >
              {name}
            </Link>
          </Heading>
          {description ? <p className={mutedTextClass}>{description}</p> : null}
        </div>
        {status ? <NowStatusBadge status={status} /> : null}
      </div>
      {stats ? (
        <OccupancyBar label={name} stats={stats} showLabel={false} />
      ) : (
        <p className={`flex items-center gap-2 ${mutedTextClass}`}>
          <span aria-hidden="true" className="size-3 shrink-0 animate-spin rounded-full border-2 border-slate-500 border-t-transparent motion-reduce:animate-none dark:border-slate-300 dark:border-t-transparent" />
          {loadingText}
        </p>
      )}
    </Card>
  );
}
