import { expect, it } from 'vitest';
import { reachedFrom } from '@/tests/client-modules';

// The room week page's client entry points (its page, the portal layout's and the root layout's).
const ENTRIES = [
  'components/resource-week/bookable-resource-week.tsx',
  'components/feeds/feed-section.tsx',
  'components/booking/live-events.tsx',
  'components/providers.tsx',
  'components/shell/language-switcher.tsx',
];

it("keeps zod, date-fns and server modules out of the room week page's browser bundle (issue 34)", () => {
  const { packages } = reachedFrom(ENTRIES);
  // Fails with the import chain, e.g. zod <- lib/booking-rules/rule-set.ts <- … <- the page.
  // intl-messageformat: the ICU parser next-intl's precompiled catalogues leave out (next.config.mjs).
  for (const banned of ['zod', 'date-fns', '@date-fns/tz', 'drizzle-orm', 'server-only', 'intl-messageformat', 'use-intl/format-message']) {
    expect(packages.get(banned) ?? null, banned).toBeNull();
  }
  expect(packages.has('react')).toBe(true);
});
