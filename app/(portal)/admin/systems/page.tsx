import type { Metadata } from 'next';
import { ActionForm } from '@/components/admin/action-form';
import { StatusBadge } from '@/components/shell/system-list';
import { cardClass, inputClass, labelClass } from '@/components/ui/styles';
import { requirePageAdmin } from '@/lib/auth/session';
import { getDb } from '@/lib/db';
import { readResources } from '@/lib/mirror/store';
import { guessResourceKind, RESOURCE_KINDS, type ResourceKind } from '@/lib/schedule/resource-kind';
import { BOOKING_HORIZON_MAX_DAYS, BOOKING_QUOTA_MAX } from '@/lib/systems/schemas';
import { listAllSystems, readResourceKinds } from '@/lib/systems/store';
import { connectSystemsAction, disconnectSystemAction, updateResourceKindAction, updateSystemAction } from '../actions';

const KIND_WORDS: Record<ResourceKind, string> = { laundry: 'Laundry', drying: 'Drying', other: 'Other' };

export const metadata: Metadata = { title: 'Connected systems' };

// Every IANA zone this runtime knows, plus UTC (which supportedValuesOf leaves out), sorted; the
// server still validates what comes back (lib/systems/schemas.ts).
const zones = [...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC'])].sort();

/** The zones to offer a system: the known ones, and its current one if this runtime lacks it (an alias). */
const zonesFor = (current: string) => (zones.includes(current) ? zones : [current, ...zones]);

export default async function AdminSystemsPage() {
  await requirePageAdmin('/admin/systems');
  const { db } = await getDb();
  const systems = await listAllSystems(db);
  // Each system's rooms (from its mirror) with the kind set for them, for the kind selects.
  const rooms = new Map(
    await Promise.all(
      systems.map(async (s) => {
        const [resources, kinds] = await Promise.all([readResources(db, s.deviceId), readResourceKinds(db, s.deviceId)]);
        return [s.deviceId, resources.map((r) => ({ ...r, kind: kinds.get(r.id) ?? null, guess: guessResourceKind(r.name, r.description) }))] as const;
      }),
    ),
  );
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
                  <label htmlFor={`quota-${s.deviceId}`} className={labelClass}>Bookings per apartment and room</label>
                  <input
                    id={`quota-${s.deviceId}`}
                    name="bookingQuota"
                    type="number"
                    min={1}
                    max={BOOKING_QUOTA_MAX}
                    defaultValue={s.bookingQuota}
                    required
                    className={inputClass}
                    aria-label={`Bookings per apartment and room in ${s.name}`}
                    aria-describedby={`quota-hint-${s.deviceId}`}
                  />
                  <p id={`quota-hint-${s.deviceId}`} className="text-xs text-slate-500 dark:text-slate-400">
                    Future bookings an apartment may hold in one room, as set in the booking system&apos;s own rules (usually 2). The portal refuses a booking beyond it before sending it.
                  </p>
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
              <details className="mt-4 border-t border-slate-200 pt-3 dark:border-slate-700">
                <summary className="cursor-pointer text-sm font-medium">Room kinds ({rooms.get(s.deviceId)?.length ?? 0})</summary>
                {(rooms.get(s.deviceId) ?? []).length === 0 ? (
                  <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">No rooms loaded yet.</p>
                ) : (
                  <ul className="mt-2 flex flex-col gap-2" aria-label={`Room kinds of ${s.name}`}>
                    {(rooms.get(s.deviceId) ?? []).map((r) => (
                      <li key={r.id}>
                        <ActionForm action={updateResourceKindAction} submitLabel="Save" submitAriaLabel={`Save the kind of ${r.name || 'the unnamed room'}`} submitVariant="secondary" className="flex flex-wrap items-end gap-2">
                          <input type="hidden" name="deviceId" value={s.deviceId} />
                          <input type="hidden" name="resourceId" value={r.id} />
                          <div className="flex min-w-48 flex-1 flex-col gap-1">
                            <label htmlFor={`kind-${r.id}`} className={labelClass}>{r.name || 'Unnamed room'}</label>
                            <select id={`kind-${r.id}`} name="kind" defaultValue={r.kind ?? ''} className={inputClass}>
                              <option value="">{KIND_WORDS[r.guess]} (guessed from the name)</option>
                              {RESOURCE_KINDS.map((k) => (
                                <option key={k} value={k}>{KIND_WORDS[k]}</option>
                              ))}
                            </select>
                          </div>
                        </ActionForm>
                      </li>
                    ))}
                  </ul>
                )}
              </details>
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
