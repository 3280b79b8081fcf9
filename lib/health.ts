import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { errorMessageOf, within } from '@/lib/within';
import { mountedSandboxCredentials } from '@/lib/sandbox-mount';
import { getServiceClient, sandboxBaseUrl } from '@/lib/service/client-from-settings';
import { startupTaskProblems } from '@/lib/startup-status';

/**
 * Liveness: `ok`, or `degraded` (200: the process works, restarting it would not help) when the
 * reservation service — the mounted sandbox, in sandbox mode — cannot be reached or a start-up
 * connection failed, or `error` (503) when the database is unreachable.
 */
export interface HealthReport {
  status: 'ok' | 'degraded' | 'error';
  database: 'pglite' | 'postgres';
  service: 'sandbox' | 'remote';
  failing?: 'database' | 'service';
  message?: string;
}

export interface HealthDeps {
  pingDatabase: () => Promise<unknown>;
  /** An access token of the portal's service client (cached by the client once had). */
  accessToken: () => Promise<unknown>;
  /** Start-up connections that gave up (lib/startup-status.ts). */
  startupProblems: () => string[];
  serviceMode: 'sandbox' | 'remote';
  databaseKind: 'pglite' | 'postgres';
  /** Where the portal addresses the mounted sandbox (sandbox mode). */
  sandboxUrl: string;
  timeoutMs?: number;
}

const TIMEOUT_MS = 5_000;

export async function checkHealthWith(deps: HealthDeps): Promise<HealthReport> {
  const ms = deps.timeoutMs ?? TIMEOUT_MS;
  const base = { database: deps.databaseKind, service: deps.serviceMode } as const;
  try {
    await within(ms, deps.pingDatabase());
  } catch (error) {
    log.error('health check: database unreachable', { error });
    return { status: 'error', ...base, failing: 'database', message: 'The database is unreachable.' };
  }
  const problems: string[] = [];
  try {
    await within(ms, deps.accessToken());
  } catch (error) {
    problems.push(
      deps.serviceMode === 'sandbox'
        ? `The built-in sandbox at ${deps.sandboxUrl} cannot be reached (${errorMessageOf(error)}); if the portal listens elsewhere, set PORTAL_URL to its address.`
        : `The reservation service gives no access token (${errorMessageOf(error)}).`,
    );
  }
  problems.push(...deps.startupProblems());
  if (problems.length === 0) return { status: 'ok', ...base };
  log.warn('health check: degraded', { problems });
  return { status: 'degraded', ...base, failing: 'service', message: problems.join(' ') };
}

export function checkHealth(): Promise<HealthReport> {
  return checkHealthWith({
    pingDatabase: () => getDb().then((handle) => handle.db.execute(sql`SELECT 1`)),
    accessToken: async () => (await getServiceClient(mountedSandboxCredentials)).accessToken(),
    startupProblems: startupTaskProblems,
    serviceMode: env.serviceMode,
    databaseKind: env.databaseKind,
    sandboxUrl: sandboxBaseUrl(),
  });
}
