import type { ReactNode } from 'react';

// Pages made to be printed (the week sheet for the laundry-room door): no portal header, menu or
// live event stream around them. Each page checks the session and access itself.
export default function PrintLayout({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="mx-auto max-w-6xl px-4 py-6 print:max-w-none print:p-0">
      {children}
    </main>
  );
}
