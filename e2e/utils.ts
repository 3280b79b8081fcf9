import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { test as base, expect, request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import type { SandboxFixtures } from '@/sandbox';
import { BASE_PORT, E2E_SECRETS, freshDataDir, SEED_FIXTURES_FILE, startPortal, WEBHOOK_REGISTERED, type RunningPortal } from './portal-server';

// Each Playwright worker has a portal of its own (e2e/portal-server.ts): worker n at BASE_PORT + 10·n.
// Playwright sets TEST_PARALLEL_INDEX (0 … workers − 1) in a worker before it loads the specs.
export const PORT = BASE_PORT + 10 * Number(process.env.TEST_PARALLEL_INDEX ?? 0);
export const BASE_URL = `http://localhost:${PORT}`;
export const E2E_AUTH_SECRET = E2E_SECRETS.AUTH_SECRET;
export const E2E_METRICS_TOKEN = E2E_SECRETS.METRICS_TOKEN;
export const E2E_ENCRYPTION_KEY = E2E_SECRETS.ENCRYPTION_KEY;

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
export async function sampleResidents() {
  const fixtures = await sandboxFixtures();
  const mine = fixtures.approvals[0]?.deviceIds ?? [];
  const residents = fixtures.residents.filter((r) => mine.includes(r.deviceId));
  const withPlus = residents.find((r) => r.email.includes('+'));
  const oddApartment = residents.find((r) => /[ /]/.test(r.apartmentId)) ?? residents[0];
  const other = fixtures.residents.find((r) => !mine.includes(r.deviceId));
  if (!withPlus || !oddApartment || !other) throw new Error('the demo fixtures lack the sample residents');
  return { fixtures, withPlus, oddApartment, other, systemName: (id: string) => fixtures.systems.find((s) => s.deviceId === id)?.name ?? '' };
}

let fixtures: SandboxFixtures | undefined;
/**
 * The demo sandbox's fixtures (systems, approvals, residents and its client credentials) as every
 * spec's world starts with them: read from the seed world once (e2e/global-setup.ts), not over HTTP.
 */
export async function sandboxFixtures(): Promise<SandboxFixtures> {
  fixtures ??= JSON.parse(await readFile(SEED_FIXTURES_FILE, 'utf8')) as SandboxFixtures;
  return structuredClone(fixtures);
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

/**
 * The worker's portal: started for the first spec file the worker runs and started again, on a
 * fresh copy of the seed world, for every later file — so a spec sees only its own changes.
 */
class WorkerPortal {
  private running: RunningPortal | null = null;
  private file: string | null = null;

  async forFile(file: string): Promise<void> {
    if (this.running && this.file === file && this.running.child.exitCode === null) return;
    await this.stop();
    this.running = await startPortal(PORT, freshDataDir(PORT), 'spec');
    this.file = file;
    // Outcomes reach it only once it has registered its webhook with its sandbox.
    await this.running.logLine(WEBHOOK_REGISTERED, 60_000);
  }

  async stop(): Promise<void> {
    await this.running?.stop('SIGKILL');
    this.running = null;
  }
}

export const test = base.extend<
  { signedInAs: (who: DemoRole | { email: string; password: string }) => Promise<void>; freshPortal: void },
  { workerPortal: WorkerPortal }
>({
  workerPortal: [
    // eslint-disable-next-line no-empty-pattern -- Playwright's fixtures take their dependencies as a destructured first argument
    async ({}, provide) => {
      const portal = new WorkerPortal();
      await provide(portal);
      await portal.stop();
    },
    { scope: 'worker' },
  ],
  freshPortal: [
    async ({ workerPortal }, provide, testInfo) => {
      await workerPortal.forFile(testInfo.file);
      await provide();
    },
    { auto: true, timeout: 180_000 },
  ],
  // eslint-disable-next-line no-empty-pattern -- as above
  baseURL: async ({}, provide) => provide(BASE_URL),
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
  const fixtures = await sandboxFixtures();
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
  const residents = (await sandboxFixtures()).residents.filter((r) => r.deviceId === deviceId);
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
