import Link from 'next/link';
import { redirect } from 'next/navigation';
import { getSession } from '@/lib/auth/session';

export default async function HomePage() {
  if (await getSession()) redirect('/systems');
  return (
    <main className="mx-auto flex max-w-2xl flex-col gap-4 px-4 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Laundry booking portal</h1>
      <p className="text-slate-600 dark:text-slate-300">
        Book shared laundry and drying rooms on behalf of residents, see occupancy at a glance, and
        follow every booking to its outcome live.
      </p>
      <p>
        <Link href="/sign-in" className="inline-block rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2">
          Sign in
        </Link>
      </p>
    </main>
  );
}
