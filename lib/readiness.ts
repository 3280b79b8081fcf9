import 'server-only';
import { getDb, type DbHandle } from '@/lib/db';
import { loadMigrations } from '@/lib/db/migrate';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { errorMessageOf, within } from '@/lib/within';
import { mountedSandboxCredentials } from '@/lib/sandbox-mount';
import { getServiceClient } from '@/lib/service/client-from-settings';

export type ReadinessCheck = 'database' | 'migrations' | 'upstreamToken';

export interface CheckResult {
  ok: boolean;
  /** Why not, in words an operator can act on; absent when ok. Never a credential. */
  message?: string;
  /** Migrations in the checkout that the database has not recorded (migrations check). */
  missing?: string[];
}

export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  service: 'sandbox' | 'remote';
  checks: Record<ReadinessCheck, CheckResult>;
  /** The names of the failing checks. */
  failing: ReadinessCheck[];
}

export interface ReadinessDeps {
  db: () => Promise<Pick<DbHandle, 'sql'>>;
  /** Every migration id of the checkout (lib/db/migrate.ts's list). */
  migrationIds: () => Promise<string[]>;
  /** An upstream access token (the client's token provider; a cached one counts). */
  accessToken: () => Promise<unknown>;
  timeoutMs?: number;
}

const CHECK_TIMEOUT_MS = 5_000;

/**
 * Whether this process should be sent traffic: the database answers, every migration of the
 * checkout is applied, and an upstream access token can be had. Each check runs (and fails) on its
 * own; the database-bound ones are skipped with their own message when the database is down.
 */
export async function checkReadiness(deps: ReadinessDeps): Promise<Omit<ReadinessReport, 'service'>> {
  const ms = deps.timeoutMs ?? CHECK_TIMEOUT_MS;
  const database = within(ms, deps.db().then(async (handle) => (await handle.sql.query('SELECT 1'), handle)));

  const databaseCheck = database.then(
    (): CheckResult => ({ ok: true }),
    (error: unknown): CheckResult => ({ ok: false, message: `The database is unreachable: ${errorMessageOf(error)}` }),
  );
  const migrationsCheck = database.then(
    async (handle): Promise<CheckResult> => {
      try {
        const [expected, applied] = await Promise.all([
          deps.migrationIds(),
          within(ms, handle.sql.query<{ id: string }>('SELECT id FROM portal_migrations')).then((r) => new Set(r.rows.map((row) => row.id))),
        ]);
        const missing = expected.filter((id) => !applied.has(id));
        return missing.length === 0
          ? { ok: true }
          : { ok: false, message: `${missing.length} migration${missing.length === 1 ? ' is' : 's are'} not applied.`, missing };
      } catch (error) {
        return { ok: false, message: `The applied migrations could not be read: ${errorMessageOf(error)}` };
      }
    },
    (): CheckResult => ({ ok: false, message: 'Not checked: the database is unreachable.' }),
  );
  const tokenCheck = within(ms, deps.accessToken()).then(
    (): CheckResult => ({ ok: true }),
    (error: unknown): CheckResult => ({ ok: false, message: `No access token from the reservation service: ${errorMessageOf(error)}` }),
  );

  const [databaseResult, migrationsResult, tokenResult] = await Promise.all([databaseCheck, migrationsCheck, tokenCheck]);
  const checks: Record<ReadinessCheck, CheckResult> = { database: databaseResult, migrations: migrationsResult, upstreamToken: tokenResult };
  const failing = (Object.keys(checks) as ReadinessCheck[]).filter((name) => !checks[name].ok);
  if (failing.length > 0) log.warn('readiness check failing', { failing, messages: failing.map((name) => checks[name].message) });
  return { status: failing.length === 0 ? 'ready' : 'not_ready', checks, failing };
}

/** The portal's own dependencies: its database, its migrations, its service client (sandbox or remote). */
export const liveReadinessDeps: ReadinessDeps = {
  db: getDb,
  migrationIds: async () => (await loadMigrations()).map((m) => m.id),
  accessToken: async () => (await getServiceClient(mountedSandboxCredentials)).accessToken(),
};

/** GET /api/health/ready: 200 when ready, 503 naming each failing check otherwise. */
export async function readinessResponse(deps: ReadinessDeps = liveReadinessDeps): Promise<Response> {
  const report: ReadinessReport = { ...(await checkReadiness(deps)), service: env.serviceMode };
  return Response.json(report, { status: report.status === 'ready' ? 200 : 503, headers: { 'Cache-Control': 'no-store' } });
}
