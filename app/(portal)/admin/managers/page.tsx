import type { Metadata } from 'next';
import { ActionForm } from '@/components/admin/action-form';
import { Badge } from '@/components/ui/badge';
import { cardClass, inputClass, labelClass, mutedTextClass } from '@/components/ui/styles';
import { listAccounts, type AccountSummary } from '@/lib/admin/accounts';
import { PASSWORD_MIN_LENGTH } from '@/lib/auth/schemas';
import { requirePageAdmin } from '@/lib/auth/session';
import { getDb } from '@/lib/db';
import type { SystemPublic } from '@/lib/systems/schemas';
import { listAllSystems } from '@/lib/systems/store';
import {
  assignSystemsAction,
  createAccountAction,
  deactivateAccountAction,
  deleteAccountAction,
  reactivateAccountAction,
  resetPasswordAction,
} from '../actions';

export const metadata: Metadata = { title: 'Accounts' };

export default async function AdminAccountsPage() {
  const me = await requirePageAdmin('/admin/managers');
  const { db } = await getDb();
  const [accounts, systems] = await Promise.all([listAccounts(db), listAllSystems(db)]);
  const admins = accounts.filter((a) => a.role === 'admin');
  const managers = accounts.filter((a) => a.role === 'manager');
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Accounts</h1>
      <section aria-labelledby="new-account-heading" className={cardClass}>
        <h2 id="new-account-heading" className="mb-3 text-lg font-medium">New account</h2>
        <ActionForm action={createAccountAction} submitLabel="Create account" resetOnSuccess>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
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
              <p id="new-password-hint" className="text-xs text-slate-600 dark:text-slate-400">
                At least {PASSWORD_MIN_LENGTH} characters, not a common one, not the name or e-mail.
              </p>
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor="new-role" className={labelClass}>Role</label>
              <select id="new-role" name="role" defaultValue="manager" className={inputClass} aria-describedby="new-role-hint">
                <option value="manager">Manager</option>
                <option value="admin">Admin</option>
              </select>
              <p id="new-role-hint" className="text-xs text-slate-600 dark:text-slate-400">Admins see every system and manage accounts.</p>
            </div>
          </div>
        </ActionForm>
      </section>
      <section aria-labelledby="admins-heading" className="flex flex-col gap-3">
        <h2 id="admins-heading" className="text-lg font-medium">Admins ({admins.length})</h2>
        <ul aria-label="Admins" className="grid gap-3 lg:grid-cols-2">
          {admins.map((a) => (
            <AccountCard key={a.id} account={a} isMe={a.id === me.id} systems={systems} />
          ))}
        </ul>
      </section>
      <section aria-labelledby="managers-heading" className="flex flex-col gap-3">
        <h2 id="managers-heading" className="text-lg font-medium">Managers ({managers.length})</h2>
        {managers.length === 0 ? <p className={mutedTextClass}>None yet.</p> : null}
        <ul aria-label="Managers" className="grid gap-3 lg:grid-cols-2">
          {managers.map((m) => (
            <AccountCard key={m.id} account={m} isMe={false} systems={systems} />
          ))}
        </ul>
      </section>
    </div>
  );
}

function AccountCard({ account: a, isMe, systems }: { account: AccountSummary; isMe: boolean; systems: SystemPublic[] }) {
  const deactivated = a.deactivatedAt !== null;
  return (
    <li className={`${cardClass} flex flex-col gap-4`} aria-label={a.name}>
      <div>
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-medium">{a.name}</h3>
          {isMe ? <Badge tone="neutral">You</Badge> : null}
          {deactivated ? <Badge tone="danger">Deactivated</Badge> : null}
        </div>
        <p className="break-all text-sm text-slate-600 dark:text-slate-300">{a.email}</p>
      </div>
      {a.role === 'manager' ? (
        <>
          <ActionForm action={assignSystemsAction} submitLabel="Save systems" submitAriaLabel={`Save systems for ${a.name}`}>
            <input type="hidden" name="userId" value={a.id} />
            <fieldset className="flex flex-col gap-1">
              <legend className={labelClass}>Systems {a.name} may use</legend>
              {systems.length === 0 ? <p className={mutedTextClass}>No systems connected yet.</p> : null}
              {systems.map((s) => (
                <label key={s.deviceId} className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="deviceId" value={s.deviceId} defaultChecked={a.deviceIds.includes(s.deviceId)} className="h-4 w-4" />
                  {s.name}
                </label>
              ))}
            </fieldset>
          </ActionForm>
          <ActionForm action={resetPasswordAction} submitLabel="Reset password" submitAriaLabel={`Reset password of ${a.name}`} resetOnSuccess>
            <input type="hidden" name="userId" value={a.id} />
            <div className="flex flex-col gap-1">
              <label htmlFor={`pw-${a.id}`} className={labelClass}>New password for {a.name}</label>
              <input id={`pw-${a.id}`} name="password" type="password" required minLength={PASSWORD_MIN_LENGTH} autoComplete="new-password" className={inputClass} />
            </div>
          </ActionForm>
        </>
      ) : null}
      {isMe ? (
        <p className={mutedTextClass}>Another admin can deactivate or delete your account; you cannot.</p>
      ) : (
        <div className="flex flex-wrap items-start gap-3 border-t border-slate-200 pt-3 dark:border-slate-700">
          {deactivated ? (
            <ActionForm action={reactivateAccountAction} submitLabel="Reactivate" submitAriaLabel={`Reactivate ${a.name}`} submitVariant="secondary">
              <input type="hidden" name="userId" value={a.id} />
            </ActionForm>
          ) : (
            <ActionForm
              action={deactivateAccountAction}
              submitLabel="Deactivate"
              submitAriaLabel={`Deactivate ${a.name}`}
              submitVariant="secondary"
              confirm={{
                title: `Deactivate ${a.name}?`,
                body: `${a.name} is signed out everywhere at once and cannot sign in until an admin reactivates the account. Their systems and history stay.`,
                confirmLabel: `Deactivate ${a.name}`,
              }}
            >
              <input type="hidden" name="userId" value={a.id} />
            </ActionForm>
          )}
          <ActionForm
            action={deleteAccountAction}
            submitLabel="Delete"
            submitAriaLabel={`Delete ${a.name}`}
            submitVariant="secondary"
            confirm={{
              title: `Delete ${a.name}?`,
              body: `The account ${a.email} is removed for good and signed out everywhere. Booking requests ${a.name} made stay in the history under their name.`,
              confirmLabel: `Delete ${a.name}`,
            }}
          >
            <input type="hidden" name="userId" value={a.id} />
          </ActionForm>
        </div>
      )}
    </li>
  );
}
