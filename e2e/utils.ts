import { randomBytes, randomUUID } from 'node:crypto';
import { test as base, expect, request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import type { SandboxFixtures } from '@/sandbox';

// The same values scripts/e2e-server.sh gives the portal.
export const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${PORT}`;
export const E2E_AUTH_SECRET = process.env.E2E_AUTH_SECRET ?? 'e2e-auth-secret-0123456789abcdef0123456789';
export const E2E_METRICS_TOKEN = process.env.E2E_METRICS_TOKEN ?? 'e2e-metrics-token-0123456789abcdef';
export const E2E_ENCRYPTION_KEY = process.env.E2E_ENCRYPTION_KEY ?? 'ZTJlLWVuY3J5cHRpb24ta2V5LTAxMjM0NTY3ODlhYmM=';

/** The sandbox-mode demo logins (README). */
export const DEMO = {
  admin: { email: 'admin@example.com', password: 'portal-demo' },
  manager: { email: 'manager@example.com', password: 'portal-demo' },
} as const;
export type DemoRole = keyof typeof DEMO;

export type SandboxResident = SandboxFixtures['residents'][number];

/**
 * Sample residents of the demo manager's systems (the first approval) from the sandbox fixtures:
 * one with a "+" in the e-mail address, one whose apartment number has a space or slash if any.
 */
export async function sampleResidents(request: APIRequestContext) {
  const fixtures = await sandboxFixtures(request);
  const mine = fixtures.approvals[0]?.deviceIds ?? [];
  const residents = fixtures.residents.filter((r) => mine.includes(r.deviceId));
  const withPlus = residents.find((r) => r.email.includes('+'));
  const oddApartment = residents.find((r) => /[ /]/.test(r.apartmentId)) ?? residents[0];
  const other = fixtures.residents.find((r) => !mine.includes(r.deviceId));
  if (!withPlus || !oddApartment || !other) throw new Error('the demo fixtures lack the sample residents');
  return { fixtures, withPlus, oddApartment, other, systemName: (id: string) => fixtures.systems.find((s) => s.deviceId === id)?.name ?? '' };
}

/**
 * The demo sandbox's fixtures as a signed-in admin reads them: in demo mode the route answers only an
 * admin, and never with the client secret (issue 47, decision 037). `_request` is kept for the callers.
 */
export async function sandboxFixtures(_request?: APIRequestContext): Promise<SandboxFixtures> {
  const admin = await playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { 'Accept-Language': 'en' } });
  try {
    expect(await signInWithApi(admin, DEMO.admin.email, DEMO.admin.password)).toBeNull();
    const response = await admin.get('/sandbox/_sandbox/fixtures');
    expect(response.status()).toBe(200);
    return (await response.json()) as SandboxFixtures;
  } finally {
    await admin.dispose();
  }
}

/**
 * A change to the demo sandbox (PUT/DELETE /sandbox/_sandbox/faults, reset …): in demo mode the
 * control routes answer only a signed-in admin (decision 021), so the call goes from a request
 * context of its own signed in as the demo admin — the test's own session is left as it is.
 */
export async function sandboxControl(method: 'POST' | 'PUT' | 'DELETE', path: string, data?: unknown): Promise<{ status: number; text: string }> {
  const admin = await playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { 'Accept-Language': 'en' } });
  try {
    expect(await signInWithApi(admin, DEMO.admin.email, DEMO.admin.password)).toBeNull();
    const response = await admin.fetch(path, { method, data, headers: { origin: BASE_URL } });
    return { status: response.status(), text: await response.text() };
  } finally {
    await admin.dispose();
  }
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
}

/**
 * Signs in through next-auth's own endpoints (CSRF token, then the credentials callback), the way
 * the sign-in form does, without clicking through it. Cookies land in the request context, which
 * for `context.request` is the browser context's cookie jar. Returns next-auth's error code, if any.
 */
export async function signInWithApi(request: APIRequestContext, email: string, password: string): Promise<string | null> {
  const csrf = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const response = await request.post('/api/auth/callback/credentials', {
    form: { csrfToken: csrf.csrfToken, email, password, json: 'true' },
    headers: { origin: BASE_URL },
  });
  expect(response.status()).toBe(200);
  const { url } = (await response.json()) as { url: string };
  return new URL(url).searchParams.get('error');
}

export const test = base.extend<{ signedInAs: (who: DemoRole | { email: string; password: string }) => Promise<void> }>({
  signedInAs: async ({ context }, provide) => {
    await provide(async (who) => {
      const { email, password } = typeof who === 'string' ? DEMO[who] : who;
      expect(await signInWithApi(context.request, email, password)).toBeNull();
    });
  },
});

export { expect };

export interface Overview {
  system: { deviceId: string; name: string };
  freshness: { status: string };
  resources: { id: string; name: string }[];
}

/** The demo manager's first system, once its mirror has loaded. */
export async function firstSystem(page: Page): Promise<Overview> {
  const fixtures = await sandboxFixtures(page.request);
  const deviceId = fixtures.approvals[0]?.deviceIds[0] ?? '';
  let overview: Overview | undefined;
  await expect
    .poll(
      async () => {
        const response = await page.request.get(`/api/systems/${deviceId}/overview`);
        if (response.status() !== 200) return `status ${response.status()}`;
        overview = (await response.json()) as Overview;
        return overview.freshness.status;
      },
      { timeout: 90_000 },
    )
    .toBe('ready');
  return overview!;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Picks a resident in a resident combobox (the slot dialog's "Resident", the Residents page's
 * "Find a resident"): types the apartment number, then clicks the resident in that apartment's group.
 */
export async function chooseResident(
  scope: Page | ReturnType<Page['getByRole']>,
  label: string,
  resident: { name: string; apartmentId: string; email?: string },
) {
  await scope.getByRole('combobox', { name: label }).fill(resident.apartmentId);
  const group = scope.getByRole('group', { name: new RegExp(`^Apartment ${escapeRegExp(resident.apartmentId)}, `) }).first();
  // By e-mail too where known: the demo has namesakes in one apartment (two Maria Erikssons in 1004).
  const name = resident.email ? `^${escapeRegExp(resident.name)}\\s+${escapeRegExp(resident.email)}$` : `^${escapeRegExp(resident.name)}`;
  await group.getByRole('option', { name: new RegExp(name) }).click({ timeout: 20_000 });
}

export interface WeekSlot {
  startTime: string;
  endTime: string;
  state: string;
  /** Who holds the slot, as facts (lib/schedule Owner). */
  ownerLabel: { kind: string; apartment?: string } | null;
  isPast: boolean;
  bookable: boolean;
}
export interface WeekView {
  freshness: { status: string };
  nav: { next: string };
  week: { key: string; week: number };
  slots: WeekSlot[];
  resource: { name: string } | null;
}

/** A room's week from the API, once the mirror has loaded (polled for up to a minute). */
export async function weekView(request: APIRequestContext, deviceId: string, resourceId: string, week?: string): Promise<WeekView> {
  for (let i = 0; i < 60; i += 1) {
    const response = await request.get(`/api/systems/${deviceId}/resources/${resourceId}/week${week ? `?week=${week}` : ''}`);
    if (response.status() === 200) {
      const view = (await response.json()) as WeekView;
      if (view.freshness.status === 'ready') return view;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('the week view never became ready');
}

/** A slot of the week view with its instants (the API's own fields). */
export type TimedWeekSlot = WeekSlot & { startMs: number; endMs: number; date: string };

/**
 * Books, through the portal's API, the first bookable slot that starts within 36 h (today's or
 * tomorrow's, what a laundry-room display shows) in the first of `rooms` that has one, for the first
 * of the system's residents allowed there whose booking the portal takes (202). The slot and that
 * resident's apartment, or null when no room has such a slot and resident.
 */
export async function bookFirstSlotWithin36h(
  request: APIRequestContext,
  deviceId: string,
  rooms: { id: string }[],
  keyPrefix: string,
): Promise<{ slot: TimedWeekSlot; apartment: string } | null> {
  const residents = (await sandboxFixtures(request)).residents.filter((r) => r.deviceId === deviceId);
  const soon = Date.now() + 36 * 3_600_000;
  for (const room of rooms) {
    const current = await weekView(request, deviceId, room.id);
    const next = await weekView(request, deviceId, room.id, current.nav.next);
    const slot = ([...current.slots, ...next.slots] as TimedWeekSlot[]).find((s) => s.bookable && s.startMs < soon);
    if (!slot) continue;
    for (const resident of residents.filter((r) => r.resourceIds.includes(room.id))) {
      const response = await request.post('/api/reservations', {
        data: { deviceId, resourceId: room.id, residentUserId: resident.userId, startTime: slot.startTime, endTime: slot.endTime },
        headers: { 'idempotency-key': `${keyPrefix}-${randomUUID()}`, origin: BASE_URL },
      });
      if (response.status() === 202) return { slot, apartment: resident.apartmentId };
    }
  }
  return null;
}
