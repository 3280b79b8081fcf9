import { useTranslations } from 'next-intl';
import Link from 'next/link';

const linkClass =
  'inline-block rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500';

/** What a not-found or forbidden page says (a system not assigned, or the admin area to a manager), with the way back. */
export function FallbackMessage({ kind, signedIn }: { kind: 'not-found' | 'forbidden' | 'admin-only'; signedIn: boolean }) {
  const t = useTranslations('errorPages');
  const page = kind === 'forbidden' ? 'forbidden' : kind === 'admin-only' ? 'adminOnly' : 'notFound';
  return (
    <section aria-labelledby="fallback-title" className="flex max-w-xl flex-col gap-4 py-6">
      <p className="text-sm font-medium text-slate-600 dark:text-slate-300">{t(`${page}.code`)}</p>
      <h1 id="fallback-title" className="text-2xl font-semibold tracking-tight">{t(`${page}.title`)}</h1>
      <p className="text-slate-700 dark:text-slate-300">{t(`${page}.text`)}</p>
      <p>
        {signedIn ? (
          <Link href="/systems" className={linkClass}>{t('backToSystems')}</Link>
        ) : (
          <Link href="/" className={linkClass}>{t('toStartPage')}</Link>
        )}
      </p>
    </section>
  );
}
