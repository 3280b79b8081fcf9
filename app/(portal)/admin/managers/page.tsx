import type { Metadata } from 'next';
import { ActionForm } from '@/components/admin/action-form';
import { cardClass, inputClass, labelClass } from '@/components/ui/styles';
import { PASSWORD_MIN_LENGTH } from '@/lib/auth/schemas';
import { requirePageAdmin } from '@/lib/auth/session';
import { listManagers } from '@/lib/auth/users';
import { getDb } from '@/lib/db';
import { listAllSystems } from '@/lib/systems/store';
import { assignSystemsAction, createManagerAction, resetPasswordAction } from '../actions';

export const metadata: Metadata = { title: 'Managers' };

export default async function AdminManagersPage() {
  await requirePageAdmin('/admin/managers');
  const { db } = await getDb();
  const [managers, systems] = await Promise.all([listManagers(db), listAllSystems(db)]);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Managers</h1>
      <section aria-labelledby="new-manager-heading" className={cardClass}>
        <h2 id="new-manager-heading" className="mb-3 text-lg font-medium">New manager</h2>
        <ActionForm action={createManagerAction} submitLabel="Create manager">
          <div className="grid gap-3 sm:grid-cols-3">
            <div className="flex flex-col gap-1">
              <label htmlFor="new-name" className={labelClass}>Name</label>
              <input id="new-name" name="name" required className={inputClass} />
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor="new-email" className={labelClass}>E-mail</label>
              <input id="new-email" name="email" type="email" required autoComplete="off" className={inputClass} />
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor="new-password" className={labelClass}>Password</label>
              <input id="new-password" name="password" type="password" required minLength={PASSWORD_MIN_LENGTH} autoComplete="new-password" className={inputClass} aria-describedby="new-password-hint" />
              <p id="new-password-hint" className="text-xs text-slate-500 dark:text-slate-400">At least {PASSWORD_MIN_LENGTH} characters.</p>
            </div>
          </div>
        </ActionForm>
      </section>
      <section aria-labelledby="managers-heading" className="flex flex-col gap-3">
        <h2 id="managers-heading" className="text-lg font-medium">Managers ({managers.length})</h2>
        <ul aria-label="Managers" className="grid gap-3 lg:grid-cols-2">
          {managers.map((m) => (
            <li key={m.id} className={`${cardClass} flex flex-col gap-4`} aria-label={m.name}>
              <div>
                <h3 className="font-medium">{m.name}</h3>
                <p className="text-sm text-slate-600 dark:text-slate-300">{m.email}</p>
              </div>
              <ActionForm action={assignSystemsAction} submitLabel="Save systems" submitAriaLabel={`Save systems for ${m.name}`}>
                <input type="hidden" name="userId" value={m.id} />
                <fieldset className="flex flex-col gap-1">
                  <legend className={labelClass}>Systems {m.name} may use</legend>
                  {systems.length === 0 ? <p className="text-sm text-slate-500">No systems connected yet.</p> : null}
                  {systems.map((s) => (
                    <label key={s.deviceId} className="flex items-center gap-2 text-sm">
                      <input type="checkbox" name="deviceId" value={s.deviceId} defaultChecked={m.deviceIds.includes(s.deviceId)} className="h-4 w-4" />
                      {s.name}
                    </label>
                  ))}
                </fieldset>
              </ActionForm>
              <ActionForm action={resetPasswordAction} submitLabel="Reset password" submitAriaLabel={`Reset password of ${m.name}`}>
                <input type="hidden" name="userId" value={m.id} />
                <div className="flex flex-col gap-1">
                  <label htmlFor={`pw-${m.id}`} className={labelClass}>New password for {m.name}</label>
                  <input id={`pw-${m.id}`} name="password" type="password" required minLength={PASSWORD_MIN_LENGTH} autoComplete="new-password" className={inputClass} />
                </div>
              </ActionForm>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
