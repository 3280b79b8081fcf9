import type { Metadata, Viewport } from 'next';
import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getMessages, getTranslations } from 'next-intl/server';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { Providers } from '@/components/providers';
import { clientMessages } from '@/lib/i18n/client-messages';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('metadata');
  return {
    title: { default: t('title'), template: `%s · ${t('title')}` },
    description: t('description'),
    ...staticMetadata,
  };
}

const staticMetadata: Metadata = {
  manifest: '/manifest.webmanifest',
  icons: { icon: '/favicon.ico', apple: '/icon-192.png' },
  // A tool for property managers: never in a search index (public/robots.txt says so too).
  robots: { index: false, follow: false },
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  colorScheme: 'light dark',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request, so that Next can put proxy.ts's CSP nonce on its scripts.
  await connection();
  // The reader's language (lib/api/request-locale.ts): <html lang> follows it on every page, and
  // the client components get its catalogue from the provider, without the namespaces only the
  // server reads (lib/i18n/client-messages.ts): every page's HTML carries it.
  const [locale, messages] = await Promise.all([getLocale(), getMessages()]);
  return (
    <html lang={locale}>
      <body className="min-h-screen">
        <NextIntlClientProvider messages={clientMessages(messages)}>
          <Providers>{children}</Providers>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
