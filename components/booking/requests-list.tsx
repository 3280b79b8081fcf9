'use client';

import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { fetchJson } from '@/lib/client/fetch-json';
import { queryKeys } from '@/lib/client/query-keys';
import type { RequestView } from '@/lib/events/types';
import { formatClock, formatDayTime } from '@/lib/schedule/labels';
import { errorTextClass, mutedTextClass } from '@/components/ui/styles';

const STATUS_WORDS: Record<RequestView['status'], string> = {
  sending: 'Sending',
  pending: "Sent — waiting for the service's answer",
  succeeded: 'Done',
  failed: 'Failed',
};

/** Table cells, and the smaller second line some of them have. */
const CELL = 'py-2 pr-3';
const SUBLINE = 'block text-xs text-slate-600 dark:text-slate-400';

export interface RequestsListProps {
  systems: { deviceId: string; name: string; timeZone: string }[];
  initialDeviceId: string | null;
  initial: RequestView[];
}

/** Recent booking and cancelling requests, newest first, updated live by the portal's event stream. */
export function RequestsList({ systems, initialDeviceId, initial }: RequestsListProps) {
  const [deviceId, setDeviceId] = useState<string | null>(initialDeviceId);
  const selectId = useId();
  const query = useQuery({
    queryKey: queryKeys.requests(deviceId),
    queryFn: ({ signal }) => fetchJson<{ requests: RequestView[] }>(`/api/requests?limit=50${deviceId ? `&deviceId=${deviceId}` : ''}`, { signal }),
    initialData: deviceId === initialDeviceId ? { requests: initial } : undefined,
  });
  const byId = new Map(systems.map((s) => [s.deviceId, s]));
  const requests = (query.data?.requests ?? []).filter((r) => !deviceId || r.deviceId === deviceId);
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:gap-2">
        <label htmlFor={selectId} className="text-sm font-medium">
          System
        </label>
        <select
          id={selectId}
          className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-600 dark:bg-slate-900"
          value={deviceId ?? ''}
          onChange={(e) => {
            const value = e.target.value || null;
            setDeviceId(value);
            window.history.replaceState(null, '', value ? `/requests?deviceId=${value}` : '/requests');
          }}
        >
          <option value="">All systems</option>
          {systems.map((s) => (
            <option key={s.deviceId} value={s.deviceId}>
              {s.name}
            </option>
          ))}
        </select>
      </div>
      {query.isError ? (
        <p role="alert" className={errorTextClass}>
          {query.error.message}
        </p>
      ) : null}
      {requests.length === 0 ? (
        <p className={mutedTextClass}>{query.isPending ? 'Loading…' : 'No requests yet.'}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Recent requests</caption>
            <thead>
              <tr className="border-b border-slate-300 dark:border-slate-700">
                <th scope="col" className={CELL}>Status</th>
                <th scope="col" className={CELL}>What</th>
                <th scope="col" className={CELL}>For</th>
                <th scope="col" className={CELL}>Slot</th>
                <th scope="col" className={CELL}>Asked by</th>
                <th scope="col" className={CELL}>When</th>
              </tr>
            </thead>
            <tbody>
              {requests.map((r) => {
                const tz = byId.get(r.deviceId)?.timeZone ?? 'UTC';
                const slot = r.startTime && r.endTime ? `${formatDayTime(Date.parse(r.startTime), tz)}–${formatClock(Date.parse(r.endTime), tz)}` : '—';
                return (
                  <tr key={r.id} className="border-b border-slate-200 align-top dark:border-slate-800">
                    <td className={CELL}>
                      <span className="font-medium">{STATUS_WORDS[r.status]}</span>
                      {r.status === 'failed' && r.reason ? <span className="block text-xs text-red-800 dark:text-red-200">{r.reason}</span> : null}
                    </td>
                    <td className={CELL}>
                      {r.kind === 'create' ? 'Book' : 'Cancel'} {r.resourceName ?? 'a resource'}
                      <span className={SUBLINE}>{byId.get(r.deviceId)?.name ?? ''}</span>
                    </td>
                    <td className={CELL}>
                      {r.residentName ?? 'a resident'}
                      {r.residentApartment ? <span className={SUBLINE}>apartment {r.residentApartment}</span> : null}
                    </td>
                    <td className={CELL}>{slot}</td>
                    <td className={CELL}>{r.requestedByName ?? 'someone'}</td>
                    <td className={CELL}>{formatDayTime(Date.parse(r.createdAt), tz)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
