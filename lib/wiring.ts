import 'server-only';
import { requestBudgets } from '@/lib/systems/request-budgets';
import type { Actor } from '@/lib/admin/audit';
import { recordConnectAudit } from '@/lib/admin/audit';
import type { ClosureDeps } from '@/lib/closures/closures';
import { startClosureJob } from '@/lib/closures/worker';
import { getDb } from '@/lib/db';
import { observeQueries } from '@/lib/db/query-observer';
import { env } from '@/lib/env';
import { ApiError } from '@/lib/errors/api-error';
import { getEventBus } from '@/lib/events/bus';
import type { Locale } from '@/lib/i18n/config';
import { msg } from '@/lib/i18n/message';
import { log } from '@/lib/log';
import { mailDelivery } from '@/lib/mail/delivery';
import { runningMailWorker, setRunningMailWorker } from '@/lib/mail/running-worker';
import { MailWorker } from '@/lib/mail/worker';
import type { BackgroundDeps } from '@/lib/mirror/background';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import type { MirrorSource, MirrorState } from '@/lib/mirror/types';
import { refreshSystem } from '@/lib/mirror/refresh';
import { requestQueryTimer } from '@/lib/observability/server-timing';
import type { Placeholders } from '@/lib/personal-data/anonymise';
import { eraseResident, type ErasureResult } from '@/lib/personal-data/erase';
import type { ResidentRef } from '@/lib/personal-data/extract';
import type { RetentionDeps } from '@/lib/personal-data/retention';
import { readRetentionPolicy } from '@/lib/personal-data/retention-settings';
import { renderMessage } from '@/lib/i18n/server';
import type { ReservationDeps } from '@/lib/reservations/requests';
import { getSecrets } from '@/lib/secrets';
import { mountedSandboxCredentials, mountedSandboxDirectory } from '@/lib/sandbox-mount';
import { getServiceClient } from '@/lib/service/client-from-settings';
import { apiKeyGeneratorFor } from '@/lib/systems/api-key-generator';
import { connectApproval, type ApiKeyGenerator } from '@/lib/systems/connect';
import { knownSystemNames } from '@/lib/systems/sandbox-directory';
import type { SystemPublic } from '@/lib/systems/schemas';
import { listAllSystems, readSystemApiKey } from '@/lib/systems/store';
import type { ApartmentDeps } from '@/lib/views/apartment';
import type { ViewDeps } from '@/lib/views/freshness';
import { residentSearchDepsOf, type ResidentSearchDeps } from '@/lib/views/residents';

// The composition root: the one place where the portal's modules are given their live
// dependencies — the database, the configured upstream client, the systems' keys, the event bus
// and the settings. Everything below it takes what it needs as arguments (tests pass their own).
// Process-wide instances stay on globalThis (lib/singleton.ts): instrumentation and each route
// bundle may load this module separately, and must find the same database, client and workers.

/** Each database statement counted for the request that made it (Server-Timing, when on); set at start. */
export function observeDatabaseQueries(): void {
  observeQueries(requestQueryTimer);
}

/** The configured upstream client: in sandbox mode with the mounted sandbox's credentials, read in-process. */
export function portalServiceClient(): ReturnType<typeof getServiceClient> {
  return getServiceClient(mountedSandboxCredentials);
}

/**
 * The decrypted API key of a system, for calls to the upstream service; undefined when the system
 * is not connected. The key must go nowhere but the `x-api-key` header.
 */
export async function systemApiKey(deviceId: string): Promise<string | undefined> {
  const [{ db }, { encryptionKey }] = await Promise.all([getDb(), getSecrets()]);
  return readSystemApiKey(db, deviceId, encryptionKey);
}

/** The key of a system that must be connected: 409 when it is not. */
async function apiKeyFor(deviceId: string): Promise<string> {
  const key = await systemApiKey(deviceId);
  if (!key) throw new ApiError('conflict', msg('errors.systemNotConnected'));
  return key;
}

/** A system's mirror, read from the configured upstream with the system's key. */
async function mirrorSourceFor(deviceId: string): Promise<MirrorSource> {
  const [client, apiKey] = await Promise.all([portalServiceClient(), apiKeyFor(deviceId)]);
  return serviceMirrorSource(client, apiKey);
}

/** What the views read with: the database, the mirror's source and the freshness settings. */
export async function portalViewDeps(): Promise<ViewDeps> {
  const { db } = await getDb();
  return {
    db,
    freshnessMs: env.MIRROR_FRESHNESS_S * 1000,
    budgetPerHour: env.MIRROR_REQUEST_BUDGET_PER_HOUR,
    budgetOverrides: () => requestBudgets(db),
    structureEvery: env.MIRROR_STRUCTURE_EVERY,
    backgroundMs: env.MIRROR_BACKGROUND_S * 1000,
    source: mirrorSourceFor,
  };
}

/** The apartment views: the views' dependencies and the upstream lookup of an apartment's authorizations. */
export async function portalApartmentDeps(): Promise<ApartmentDeps> {
  const [view, client] = await Promise.all([portalViewDeps(), portalServiceClient()]);
  return { ...view, client, apiKeyFor: systemApiKey };
}

/** The resident search over `systems`, whose keys and mirror states the caller read with them. */
export async function portalResidentSearchDeps(
  systems: readonly SystemPublic[],
  apiKeyOf: ResidentSearchDeps['apiKeyOf'],
  known: ReadonlyMap<string, MirrorState>,
): Promise<ResidentSearchDeps> {
  const [view, client] = await Promise.all([portalViewDeps(), portalServiceClient()]);
  return residentSearchDepsOf(view, client, systems, apiKeyOf, known);
}

/** Booking and cancelling: the database, the upstream client, the systems' keys and the event bus. */
export async function portalReservationDeps(): Promise<ReservationDeps> {
  const [{ db }, client] = await Promise.all([getDb(), portalServiceClient()]);
  return { db, client, apiKeyFor, bus: getEventBus() };
}

/** Room closures: booking's dependencies, the mirror's source, and their jobs run by this process's closure worker. */
export async function portalClosureDeps(): Promise<ClosureDeps> {
  const deps: ClosureDeps = { ...(await portalReservationDeps()), source: mirrorSourceFor };
  deps.startJob = (closureId) => startClosureJob(deps, closureId);
  return deps;
}

/** The mirror's background worker: the connected systems, their sources and the refresh settings. */
export async function portalMirrorWorkerDeps(): Promise<BackgroundDeps> {
  const { db } = await getDb();
  return {
    db,
    systems: async () => (await listAllSystems(db)).map((s) => s.deviceId),
    source: mirrorSourceFor,
    backgroundMs: env.MIRROR_BACKGROUND_S * 1000,
    freshnessMs: env.MIRROR_FRESHNESS_S * 1000,
    budgetPerHour: env.MIRROR_REQUEST_BUDGET_PER_HOUR,
    budgetOverrides: () => requestBudgets(db),
    structureEvery: env.MIRROR_STRUCTURE_EVERY,
    concurrency: env.MIRROR_BACKGROUND_CONCURRENCY,
  };
}

/** apikey/generate through the configured upstream client. */
export const generateApiKey: ApiKeyGenerator = async (approvalId) => apiKeyGeneratorFor(await portalServiceClient())(approvalId);

/** The admin's "connect systems": through the configured upstream, recorded in the admin audit log. */
export async function connectSystemsByApproval(approvalId: unknown, admin: Actor): Promise<SystemPublic[]> {
  const [{ db }, { encryptionKey }, names] = await Promise.all([getDb(), getSecrets(), knownSystemNames(mountedSandboxDirectory)]);
  return connectApproval(db, approvalId, {
    generate: generateApiKey,
    encryptionKey,
    names,
    createdBy: admin.id ?? undefined,
    afterStore: (tx, systems) => recordConnectAudit(tx, admin, systems),
  });
}

/** Starts this process's mail worker (timers unref'd), made once on the portal's database; a new outbox row kicks it. */
export async function startMailWorker(): Promise<void> {
  const { db } = await getDb();
  const worker =
    runningMailWorker() ??
    setRunningMailWorker(new MailWorker({ db, smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, retryMaxSeconds: env.MAIL_RETRY_MAX_S }));
  worker.start();
  log.info('mail worker started', mailDelivery());
}

/**
 * The words that replace names when retention anonymises (decision 034): stored in the portal's
 * default language, since the rows are read in any language afterwards (pages word an anonymised
 * row in the reader's own, issue 47); `locale` for showing them. `{apartment}` is filled per row in SQL.
 */
export async function retentionPlaceholders(locale: Locale = env.PORTAL_DEFAULT_LOCALE): Promise<Placeholders> {
  const [residentIn, resident, person, recipient] = await Promise.all([
    renderMessage(locale, msg('retention.placeholder.residentIn', { apartment: '{apartment}' })),
    renderMessage(locale, msg('retention.placeholder.resident')),
    renderMessage(locale, msg('retention.placeholder.person')),
    renderMessage(locale, msg('retention.placeholder.recipient')),
  ]);
  return { residentIn, resident, person, recipient };
}

/** The retention job: the portal's database, its periods (admin, environment, default) and the placeholders. */
export async function portalRetentionDeps(): Promise<RetentionDeps> {
  const [{ db }, placeholders] = await Promise.all([getDb(), retentionPlaceholders()]);
  return { db, placeholders, policy: () => readRetentionPolicy(db, env) };
}

/**
 * An admin's erasure of one resident (issue 37, decision 036): the placeholders of retention, then
 * the system's copy re-read from the booking system. Like a closure's, the re-read bypasses the
 * freshness window and the budget's refusal (a rare act of an admin), and is charged all the same.
 */
export async function eraseResidentNow(actor: Actor, who: ResidentRef, confirmation: string): Promise<ErasureResult> {
  const [{ db }, placeholders] = await Promise.all([getDb(), retentionPlaceholders()]);
  return eraseResident(
    {
      db,
      placeholders,
      refreshMirror: async (deviceId) => {
        const outcome = await refreshSystem(db, deviceId, await mirrorSourceFor(deviceId), {
          freshnessMs: env.MIRROR_FRESHNESS_S * 1000,
          budget: { perHour: env.MIRROR_REQUEST_BUDGET_PER_HOUR, enforce: false },
        });
        return outcome.status;
      },
    },
    actor,
    who,
    new Date(),
    { confirmation },
  );
}
