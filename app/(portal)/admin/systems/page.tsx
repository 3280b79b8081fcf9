import type { Metadata } from 'next';
import { ActionForm } from '@/components/admin/action-form';
import { StatusBadge } from '@/components/shell/system-list';
import { cardClass, inputClass, labelClass } from '@/components/ui/styles';
import { requirePageAdmin } from '@/lib/auth/session';
import { getDb } from '@/lib/db';
import { BOOKING_HORIZON_MAX_DAYS } from '@/lib/systems/schemas';
import { listAllSystems } from '@/lib/systems/store';
import { connectSystemsAction, disconnectSystemAction, updateSystemAction } from '../actions';

export const metadata: Metadata = { title: 'Connected systems' };

// Every IANA zone this runtime knows, plus UTC (which supportedValuesOf leaves out), sorted; the
// server still validates what comes back (lib/systems/schemas.ts).
const zones = [...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC'])].sort();

/** The zones to offer a system: the known ones, and its current one if this runtime lacks it (an alias). */
const zonesFor = (current: string) => (zones.includes(current) ? zones : [current, ...zones]);

export default async function AdminSystemsPage() {
  await requirePageAdmin('/admin/systems');
  const systems = await listAllSystems((await getDb()).db);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Connected systems</h1>
      <section aria-labelledby="connect-heading" className={cardClass}>
        <h2 id="connect-heading" className="mb-3 text-lg font-medium">Connect systems</h2>
        <ActionForm action={connectSystemsAction} submitLabel="Connect systems" resetOnSuccess>
          <div className="flex flex-col gap-1">
            <label htmlFor="approvalId" className={labelClass}>Approval id</label>
            <input id="approvalId" name="approvalId" required autoComplete="off" className={inputClass} aria-describedby="approvalId-hint" />
            <p id="approvalId-hint" className="text-xs text-slate-500 dark:text-slate-400">
              From the system owner, in the form 1b4e28ba-2fa1-11d2-883f-0016d3cca427. The portal exchanges it for an API key, which stays on the server, encrypted.
            </p>
          </div>
        </ActionForm>
      </section>
      <section aria-labelledby="systems-heading" className="flex flex-col gap-3">
        <h2 id="systems-heading" className="text-lg font-medium">Systems ({systems.length})</h2>
        {systems.length === 0 ? <p className="text-slate-600 dark:text-slate-300">None yet.</p> : null}
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
                  <select id={`tz-${s.deviceId}`} name="timeZone" defaultValue={s.timeZone} required className={inputClass} aria-label={`Time zone of ${s.name}`}>
                    {zonesFor(s.timeZone).map((z) => (
                      <option key={z} value={z}>{z.replaceAll('_', ' ')}</option>
                    ))}
                  </select>
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
              <div className="mt-4 border-t border-slate-200 pt-3 dark:border-slate-700">
                <ActionForm
                  action={disconnectSystemAction}
                  submitLabel="Disconnect"
                  submitAriaLabel={`Disconnect ${s.name}`}
                  submitVariant="secondary"
                  confirm={{
                    title: `Disconnect ${s.name}?`,
                    body: (
                      <>
                        The portal forgets its API key (unless another system of the same approval still uses it), its copy of the
                        system&apos;s rooms and bookings, and which managers may use it. Past booking requests stay in the history.
                        Bookings at the service are not touched. While booking requests still wait for the service&apos;s answer,
                        the portal refuses. Connecting the approval again brings the system back with default settings.
                      </>
                    ),
                    confirmLabel: `Disconnect ${s.name}`,
                  }}
                >
                  <input type="hidden" name="deviceId" value={s.deviceId} />
                </ActionForm>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
