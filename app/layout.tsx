import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Laundry booking portal', template: '%s · Laundry booking portal' },
  description: 'Book shared laundry rooms on behalf of residents and follow occupancy live.',
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
  return (
    <html lang="en">
      <body className="min-h-screen">{children}</body>
    </html>
  );
}
