import Link from 'next/link';

const linkClass =
  'inline-block rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500';

/** What a not-found or forbidden page says, with the way back. */
export function FallbackMessage({ kind, signedIn }: { kind: 'not-found' | 'forbidden'; signedIn: boolean }) {
  const title = kind === 'forbidden' ? 'You do not have access to this system' : 'Page not found';
  const text =
    kind === 'forbidden'
      ? 'This system is not among the systems assigned to you. If you should look after it, ask an admin to assign it to you.'
      : 'There is nothing at this address. The link may be mistyped, or the page may have moved.';
  return (
    <section aria-labelledby="fallback-title" className="flex max-w-xl flex-col gap-4 py-6">
      <p className="text-sm font-medium text-slate-600 dark:text-slate-300">{kind === 'forbidden' ? 'Error 403' : 'Error 404'}</p>
      <h1 id="fallback-title" className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="text-slate-700 dark:text-slate-300">{text}</p>
      <p>
        {signedIn ? (
          <Link href="/systems" className={linkClass}>Back to your systems</Link>
        ) : (
          <Link href="/" className={linkClass}>Go to the start page</Link>
        )}
      </p>
    </section>
  );
}
