import type { Metadata } from 'next';
import { ActionForm } from '@/components/admin/action-form';
import { StatusBadge } from '@/components/shell/system-list';
import { cardClass, inputClass, labelClass } from '@/components/ui/styles';
import { requirePageAdmin } from '@/lib/auth/session';
import { getDb } from '@/lib/db';
import { BOOKING_HORIZON_MAX_DAYS } from '@/lib/systems/schemas';
import { listAllSystems } from '@/lib/systems/store';
import { connectSystemsAction, updateSystemAction } from '../actions';

export const metadata: Metadata = { title: 'Connected systems' };

const zones = [...Intl.supportedValuesOf('timeZone'), 'UTC'];

export default async function AdminSystemsPage() {
  await requirePageAdmin('/admin/systems');
  const systems = await listAllSystems((await getDb()).db);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Connected systems</h1>
      <section aria-labelledby="connect-heading" className={cardClass}>
        <h2 id="connect-heading" className="mb-3 text-lg font-medium">Connect systems</h2>
        <ActionForm action={connectSystemsAction} submitLabel="Connect systems">
          <div className="flex flex-col gap-1">
            <label htmlFor="approvalId" className={labelClass}>Approval id</label>
            <input id="approvalId" name="approvalId" required autoComplete="off" className={inputClass} aria-describedby="approvalId-hint" />
            <p id="approvalId-hint" className="text-xs text-slate-500 dark:text-slate-400">
              From the system owner. The portal exchanges it for an API key, which stays on the server, encrypted.
            </p>
          </div>
        </ActionForm>
      </section>
      <section aria-labelledby="systems-heading" className="flex flex-col gap-3">
        <h2 id="systems-heading" className="text-lg font-medium">Systems ({systems.length})</h2>
        {systems.length === 0 ? <p className="text-slate-600 dark:text-slate-300">None yet.</p> : null}
        <datalist id="time-zones">
          {zones.map((z) => <option key={z} value={z} />)}
        </datalist>
        <ul aria-label="Connected systems" className="grid gap-3 lg:grid-cols-2">
          {systems.map((s) => (
            <li key={s.deviceId} className={cardClass}>
              <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
                <h3 className="font-medium">{s.name}</h3>
                <StatusBadge status={s.status} />
              </div>
              <p className="mb-3 break-all font-mono text-xs text-slate-500 dark:text-slate-400">{s.deviceId}</p>
              <ActionForm action={updateSystemAction} submitLabel="Save" submitAriaLabel={`Save ${s.name}`}>
                <input type="hidden" name="deviceId" value={s.deviceId} />
                <div className="flex flex-col gap-1">
                  <label htmlFor={`name-${s.deviceId}`} className={labelClass}>Name</label>
                  <input id={`name-${s.deviceId}`} name="name" defaultValue={s.name} required className={inputClass} aria-label={`Name of ${s.name}`} />
                </div>
                <div className="flex flex-col gap-1">
                  <label htmlFor={`tz-${s.deviceId}`} className={labelClass}>Time zone</label>
                  <input id={`tz-${s.deviceId}`} name="timeZone" defaultValue={s.timeZone} list="time-zones" required className={inputClass} aria-label={`Time zone of ${s.name}`} />
                </div>
                <div className="flex flex-col gap-1">
                  <label htmlFor={`horizon-${s.deviceId}`} className={labelClass}>Bookable days ahead</label>
                  <input
                    id={`horizon-${s.deviceId}`}
                    name="bookingHorizonDays"
                    type="number"
                    min={1}
                    max={BOOKING_HORIZON_MAX_DAYS}
                    defaultValue={s.bookingHorizonDays}
                    required
                    className={inputClass}
                    aria-label={`Bookable days ahead in ${s.name}`}
                  />
                </div>
                <div className="flex flex-col gap-1">
                  <label htmlFor={`basis-${s.deviceId}`} className={labelClass}>Schedule times are</label>
                  <select
                    id={`basis-${s.deviceId}`}
                    name="scheduleBasis"
                    defaultValue={s.scheduleBasis}
                    className={inputClass}
                    aria-label={`Schedule times of ${s.name} are`}
                    aria-describedby={`basis-hint-${s.deviceId}`}
                  >
                    <option value="utc">UTC (as the service&apos;s interface says)</option>
                    <option value="local">Local time in the system&apos;s time zone</option>
                  </select>
                  <p id={`basis-hint-${s.deviceId}`} className="text-xs text-slate-500 dark:text-slate-400">
                    If every slot shows one or two hours off from the laundry room&apos;s own board, choose local time.
                  </p>
                </div>
              </ActionForm>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
