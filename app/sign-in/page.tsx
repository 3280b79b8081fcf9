import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/auth/sign-in-form';
import { entraEnabled } from '@/lib/auth/options';
import { getSession } from '@/lib/auth/session';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = typeof params.callbackUrl === 'string' ? params.callbackUrl : undefined;
  const error = typeof params.error === 'string' ? params.error : undefined;
  if (await getSession()) redirect('/systems');
  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-sm flex-col justify-center gap-6 px-4 py-12">
      <h1 className="text-2xl font-semibold tracking-tight">Sign in to the booking portal</h1>
      <SignInForm callbackUrl={callbackUrl} initialError={error} entra={entraEnabled()} />
    </main>
  );
}
