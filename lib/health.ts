import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { log } from '@/lib/log';

export interface HealthReport {
  status: 'ok' | 'error';
  database: 'pglite' | 'postgres';
  service: 'sandbox' | 'remote';
  failing?: 'database';
  message?: string;
}

const PING_TIMEOUT_MS = 5_000;

export async function checkHealth(): Promise<HealthReport> {
  const base = { database: env.databaseKind, service: env.serviceMode } as const;
  try {
    const ping = getDb().then((handle) => handle.db.execute(sql`SELECT 1`));
    await Promise.race([
      ping,
      new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), PING_TIMEOUT_MS).unref()),
    ]);
    return { status: 'ok', ...base };
  } catch (error) {
    log.error('health check: database unreachable', { error });
    return { status: 'error', ...base, failing: 'database', message: 'The database is unreachable.' };
  }
}
