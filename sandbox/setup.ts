import { randomBytes, randomUUID } from 'node:crypto';
import type { SqlRunner } from '@/shared/sql-runner';
import type { Credentials } from './context';
import { b64url } from './encoding';
import { DATA_TABLES, migrateSandbox } from './schema';
import { DEFAULT_PRESET, DEFAULT_SEED, PORTFOLIO_SYSTEMS_DEFAULT, generate, loadSeed, rng, uuidFrom, type Preset, type PresetOptions, type SeedData } from './seed';

/** What GET /_sandbox/fixtures answers: everything an integrator needs to connect. */
export interface SandboxFixtures {
  tenantId: string;
  tokenPath: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  approvals: { approvalId: string; deviceIds: string[] }[];
  systems: { deviceId: string; name: string }[];
  residents: SeedData['residents'];
}

export interface SetupSettings {
  sql: SqlRunner;
  now: () => Date;
  quotaPerGroup: number;
  /** Seeds when given and other than stored (see initSandbox). */
  preset?: Preset;
  seed?: number;
  /** The shape of the preset (the count of `portfolio`). */
  presetOptions?: PresetOptions;
  webhooks?: { url: string; secret: string }[];
}

async function loadCredentials(sql: SqlRunner, seed: number): Promise<Credentials> {
  const { rows } = await sql.query<{ key: string; value: string }>(`SELECT key, value FROM sandbox.meta`);
  const meta = new Map(rows.map((r) => [r.key, r.value]));
  if (!meta.has('client_id')) {
    // Deterministic per seed (it is a sandbox); the signing key is random and persisted.
    const r = rng(seed * 104_729 + 17);
    const values: Record<string, string> = {
      tenant_id: uuidFrom(r),
      client_id: uuidFrom(r),
      client_secret: `sbx~${uuidFrom(r).replaceAll('-', '')}`,
      audience: uuidFrom(r),
      signing_key: b64url(randomBytes(32)),
    };
    for (const [key, value] of Object.entries(values)) {
      await sql.query(`INSERT INTO sandbox.meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, [key, value]);
    }
    return loadCredentials(sql, seed);
  }
  return {
    tenantId: meta.get('tenant_id')!,
    clientId: meta.get('client_id')!,
    clientSecret: meta.get('client_secret')!,
    audience: meta.get('audience')!,
    signingKey: Buffer.from(meta.get('signing_key')!, 'base64url'),
  };
}

/** Replaces all data with the preset's, generated from the seed. */
export async function seedData(settings: Pick<SetupSettings, 'sql' | 'now' | 'quotaPerGroup'>, preset: Preset, seed: number, options: PresetOptions = {}): Promise<void> {
  const data = generate(preset, seed, settings.now(), settings.quotaPerGroup, options);
  await settings.sql.transaction(async (tx) => {
    await tx.exec(`TRUNCATE ${DATA_TABLES.join(', ')}`);
    await loadSeed(tx, data);
    await tx.query(
      `INSERT INTO sandbox.meta (key, value) VALUES ('residents', $1), ('preset', $2), ('seed', $3), ('systems', $4)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [JSON.stringify(data.residents), preset, String(seed), String(data.systems.length)],
    );
  });
}

/** Migrates, loads (or makes) the credentials, seeds when needed and registers the given webhooks. */
export async function initSandbox(settings: SetupSettings): Promise<Credentials> {
  const { sql } = settings;
  await migrateSandbox(sql);
  const credentials = await loadCredentials(sql, settings.seed ?? DEFAULT_SEED);
  const { rows } = await sql.query<{ key: string; value: string }>(
    `SELECT key, value FROM sandbox.meta WHERE key IN ('preset', 'seed', 'systems') AND EXISTS (SELECT 1 FROM sandbox.systems)`,
  );
  const stored = new Map(rows.map((r) => [r.key, r.value]));
  // A portfolio asked for without a size is the default size.
  const systemsAsked = settings.presetOptions?.systems ?? (settings.preset === 'portfolio' ? PORTFOLIO_SYSTEMS_DEFAULT : undefined);
  // Seed when empty, or when the caller asked explicitly for other data than is stored;
  // without explicit options whatever is stored (e.g. after a reset) is kept.
  const mismatch =
    (settings.preset !== undefined && stored.get('preset') !== settings.preset) ||
    (settings.seed !== undefined && stored.get('seed') !== String(settings.seed)) ||
    (systemsAsked !== undefined && stored.get('systems') !== String(systemsAsked));
  if (stored.size === 0 || mismatch) await seedData(settings, settings.preset ?? DEFAULT_PRESET, settings.seed ?? DEFAULT_SEED, settings.presetOptions);
  for (const hook of settings.webhooks ?? []) {
    await sql.query(
      `INSERT INTO sandbox.webhooks (id, url, secret, created_at)
       SELECT $1, $2, $3, $4 WHERE NOT EXISTS (SELECT 1 FROM sandbox.webhooks WHERE url = $2 AND secret = $3)`,
      [randomUUID(), hook.url, hook.secret, settings.now()],
    );
  }
  return credentials;
}

export async function readFixtures(sql: SqlRunner, c: Credentials): Promise<SandboxFixtures> {
  const [approvals, systems, residents] = await Promise.all([
    sql.query<{ id: string; device_ids: string[] }>(`SELECT id, device_ids::text[] AS device_ids FROM sandbox.approvals ORDER BY seq`),
    sql.query<{ id: string; name: string }>(`SELECT id, name FROM sandbox.systems ORDER BY seq`),
    sql.query<{ value: string }>(`SELECT value FROM sandbox.meta WHERE key = 'residents'`),
  ]);
  return {
    tenantId: c.tenantId,
    tokenPath: `/${c.tenantId}/oauth2/v2.0/token`,
    clientId: c.clientId,
    clientSecret: c.clientSecret,
    scope: `api://${c.audience}/.default`,
    approvals: approvals.rows.map((a) => ({ approvalId: a.id, deviceIds: a.device_ids })),
    systems: systems.rows.map((s) => ({ deviceId: s.id, name: s.name })),
    residents: JSON.parse(residents.rows[0]?.value ?? '[]') as SeedData['residents'],
  };
}
