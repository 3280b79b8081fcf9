import type { Metadata } from 'next';
import { useTranslations } from 'next-intl';
import { getTranslations } from 'next-intl/server';
import Link from 'next/link';
import { ActionForm } from '@/components/admin/action-form';
import { Badge } from '@/components/ui/badge';
import { cardClass, inputClass, labelClass, mutedTextClass } from '@/components/ui/styles';
import { listAccounts, type AccountSummary } from '@/lib/admin/accounts';
import { PASSWORD_MIN_LENGTH } from '@/lib/auth/schemas';
import { requirePageAdmin } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import {
  createAccountAction,
  deactivateAccountAction,
  deleteAccountAction,
  reactivateAccountAction,
  resetPasswordAction,
} from '../actions';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('admin.accounts');
  return { title: t('title') };
}

export default async function AdminAccountsPage() {
  const me = await requirePageAdmin('/admin/managers');
  const { db } = await getDb();
  // One row per account with its number of systems: the page no longer grows with managers × systems (issue 49).
  const accounts = await listAccounts(db);
  const admins = accounts.filter((a) => a.role === 'admin');
  const managers = accounts.filter((a) => a.role === 'manager');
  const [t, common] = await Promise.all([getTranslations('admin.accounts'), getTranslations('common')]);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
      <section aria-labelledby="new-account-heading" className={cardClass}>
        <h2 id="new-account-heading" className="mb-3 text-lg font-medium">{t('newHeading')}</h2>
        <ActionForm action={createAccountAction} submitLabel={t('create')} resetOnSuccess>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <div className="flex flex-col gap-1">
              <label htmlFor="new-name" className={labelClass}>{common('name')}</label>
              <input id="new-name" name="name" required className={inputClass} />
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor="new-email" className={labelClass}>{t('email')}</label>
              <input id="new-email" name="email" type="email" required autoComplete="off" className={inputClass} />
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor="new-password" className={labelClass}>{t('password')}</label>
              <input id="new-password" name="password" type="password" required minLength={PASSWORD_MIN_LENGTH} autoComplete="new-password" className={inputClass} aria-describedby="new-password-hint" />
              <p id="new-password-hint" className="text-xs text-slate-600 dark:text-slate-400">
                {t('passwordHint', { min: PASSWORD_MIN_LENGTH })}
              </p>
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor="new-role" className={labelClass}>{t('role')}</label>
              <select id="new-role" name="role" defaultValue="manager" className={inputClass} aria-describedby="new-role-hint">
                <option value="manager">{t('roleOption', { role: 'manager' })}</option>
                <option value="admin">{t('roleOption', { role: 'admin' })}</option>
              </select>
              <p id="new-role-hint" className="text-xs text-slate-600 dark:text-slate-400">{t('roleHint')}</p>
            </div>
          </div>
        </ActionForm>
      </section>
      <section aria-labelledby="admins-heading" className="flex flex-col gap-3">
        <h2 id="admins-heading" className="text-lg font-medium">{t('admins', { count: admins.length })}</h2>
        <ul aria-label={t('adminsLabel')} className="grid gap-3 lg:grid-cols-2">
          {admins.map((a) => (
            <AccountCard key={a.id} account={a} isMe={a.id === me.id} />
          ))}
        </ul>
      </section>
      <section aria-labelledby="managers-heading" className="flex flex-col gap-3">
        <h2 id="managers-heading" className="text-lg font-medium">{t('managers', { count: managers.length })}</h2>
        {managers.length === 0 ? <p className={mutedTextClass}>{t('none')}</p> : null}
        <ul aria-label={t('managersLabel')} className="grid gap-3 lg:grid-cols-2">
          {managers.map((m) => (
            <AccountCard key={m.id} account={m} isMe={false} />
          ))}
        </ul>
      </section>
    </div>
  );
}

const linkClass = 'text-sm font-medium text-brand-600 underline hover:text-brand-700 dark:text-brand-100';

function AccountCard({ account: a, isMe }: { account: AccountSummary; isMe: boolean }) {
  const t = useTranslations('admin.accounts');
  const deactivated = a.deactivatedAt !== null;
  return (
    <li className={`${cardClass} flex flex-col gap-4`} aria-label={a.name}>
      <div>
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-medium">{a.name}</h3>
          {isMe ? <Badge tone="neutral">{t('you')}</Badge> : null}
          {deactivated ? <Badge tone="danger">{t('deactivated')}</Badge> : null}
        </div>
        <p className="break-all text-sm text-slate-600 dark:text-slate-300">{a.email}</p>
      </div>
      {a.role === 'manager' ? (
        <>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <p className="text-sm">{t('systemCount', { count: a.systemCount })}</p>
            <Link href={`/admin/managers/${a.id}`} className={linkClass}>{t('systemsOf', { name: a.name })}</Link>
          </div>
          <ActionForm action={resetPasswordAction} submitLabel={t('resetPassword')} submitAriaLabel={t('resetPasswordOf', { name: a.name })} resetOnSuccess>
            <input type="hidden" name="userId" value={a.id} />
            <div className="flex flex-col gap-1">
              <label htmlFor={`pw-${a.id}`} className={labelClass}>{t('newPasswordFor', { name: a.name })}</label>
              <input id={`pw-${a.id}`} name="password" type="password" required minLength={PASSWORD_MIN_LENGTH} autoComplete="new-password" className={inputClass} />
            </div>
          </ActionForm>
        </>
      ) : null}
      {isMe ? (
        <p className={mutedTextClass}>{t('selfNote')}</p>
      ) : (
        <div className="flex flex-wrap items-start gap-3 border-t border-slate-200 pt-3 dark:border-slate-700">
          {deactivated ? (
            <ActionForm action={reactivateAccountAction} submitLabel={t('reactivate')} submitAriaLabel={t('reactivateName', { name: a.name })} submitVariant="secondary">
              <input type="hidden" name="userId" value={a.id} />
            </ActionForm>
          ) : (
            <ActionForm
              action={deactivateAccountAction}
              submitLabel={t('deactivate')}
              submitAriaLabel={t('deactivateName', { name: a.name })}
              submitVariant="secondary"
              confirm={{
                title: t('deactivateTitle', { name: a.name }),
                body: t('deactivateBody', { name: a.name }),
                confirmLabel: t('deactivateName', { name: a.name }),
              }}
            >
              <input type="hidden" name="userId" value={a.id} />
            </ActionForm>
          )}
          <ActionForm
            action={deleteAccountAction}
            submitLabel={t('delete')}
            submitAriaLabel={t('deleteName', { name: a.name })}
            submitVariant="secondary"
            confirm={{
              title: t('deleteTitle', { name: a.name }),
              body: t('deleteBody', { name: a.name, email: a.email }),
              confirmLabel: t('deleteName', { name: a.name }),
            }}
          >
            <input type="hidden" name="userId" value={a.id} />
          </ActionForm>
        </div>
      )}
    </li>
  );
}
