import 'server-only';
import { and, asc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { arrayParam, equalsAnyUuid } from '@/lib/db/raw';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '@/lib/db';
import { connections, managerSystems, resourceKinds, systems } from '@/lib/db/schema';
import type { ResourceKind } from '@/lib/schedule/resource-kind';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { decryptSecret, encryptSecret, sha256 } from '@/lib/crypto';
import { queryBuilder, selectRows, type JsonRead } from '@/lib/db/read-together';
import { DEFAULT_TIME_ZONE, type SystemPublic, type SystemUpdate } from './schemas';

// Only these columns ever leave this module toward pages and route handlers (the systems list of
// lib/views/systems-list.ts selects them too, joined with the mirror's facts).
export const systemPublicColumns = {
  deviceId: systems.deviceId,
  name: systems.name,
  timeZone: systems.timeZone,
  status: systems.status,
  bookingHorizonDays: systems.bookingHorizonDays,
  scheduleBasis: systems.scheduleBasis,
  bookingQuota: systems.bookingQuota,
  street: systems.street,
  city: systems.city,
  area: systems.area,
};

export async function getSystem(db: Database, deviceId: string): Promise<SystemPublic | undefined> {
  const [row] = await db.select(systemPublicColumns).from(systems).where(eq(systems.deviceId, deviceId)).limit(1);
  return row;
}

/** getSystem as one read of a `readTogether` (lib/db/read-together.ts). */
export function systemRead(deviceId: string): JsonRead<SystemPublic | undefined> {
  const rows = selectRows(queryBuilder.select(systemPublicColumns).from(systems).where(eq(systems.deviceId, deviceId)).limit(1));
  return { query: rows.query, parse: (json) => rows.parse(json)[0] };
}

export function listAllSystems(db: Database): Promise<SystemPublic[]> {
  return db.select(systemPublicColumns).from(systems).orderBy(asc(systems.name), asc(systems.deviceId));
}

export function listSystemsOfManager(db: Database, userId: string): Promise<SystemPublic[]> {
  return db
    .select(systemPublicColumns)
    .from(systems)
    .innerJoin(managerSystems, eq(managerSystems.deviceId, systems.deviceId))
    .where(eq(managerSystems.userId, userId))
    .orderBy(asc(systems.name), asc(systems.deviceId));
}

export async function updateSystem(db: Database, deviceId: string, update: SystemUpdate): Promise<SystemPublic> {
  const [row] = await db
    .update(systems)
    .set({ ...update, updatedAt: new Date() })
    .where(eq(systems.deviceId, deviceId))
    .returning(systemPublicColumns);
  if (!row) throw new ApiError('not_found', msg('errors.noSuchSystem'));
  return row;
}

/** Each system's resident e-mail setting: whether residents get e-mail, and in which language (lib/mail). */
export interface SystemMailSettings {
  residentMail: boolean;
  mailLocale: string;
}

/** The systems whose request budget an admin set (the others use MIRROR_REQUEST_BUDGET_PER_HOUR). */
export async function readRequestBudgets(db: Database): Promise<Map<string, number>> {
  const rows = await db.select({ deviceId: systems.deviceId, perHour: systems.requestBudgetPerHour }).from(systems).where(isNotNull(systems.requestBudgetPerHour));
  return new Map(rows.flatMap((r) => (r.perHour === null ? [] : [[r.deviceId, r.perHour] as const])));
}

/** Sets (or, with null, clears) a system's own request budget; answers its name and the value before. */
export async function updateRequestBudget(db: Database, deviceId: string, perHour: number | null): Promise<{ name: string; before: number | null }> {
  const [before] = await db.select({ perHour: systems.requestBudgetPerHour }).from(systems).where(eq(systems.deviceId, deviceId)).limit(1);
  const [row] = await db.update(systems).set({ requestBudgetPerHour: perHour, updatedAt: new Date() }).where(eq(systems.deviceId, deviceId)).returning({ name: systems.name });
  if (!row || !before) throw new ApiError('not_found', msg('errors.noSuchSystem'));
  return { name: row.name, before: before.perHour };
}

export async function readMailSettings(db: Database): Promise<Map<string, SystemMailSettings>> {
  const rows = await db.select({ deviceId: systems.deviceId, residentMail: systems.residentMail, mailLocale: systems.mailLocale }).from(systems);
  return new Map(rows.map(({ deviceId, ...settings }) => [deviceId, settings]));
}

export async function updateMailSettings(db: Database, deviceId: string, settings: SystemMailSettings): Promise<SystemMailSettings & { name: string }> {
  const [row] = await db
    .update(systems)
    .set({ ...settings, updatedAt: new Date() })
    .where(eq(systems.deviceId, deviceId))
    .returning({ name: systems.name, residentMail: systems.residentMail, mailLocale: systems.mailLocale });
  if (!row) throw new ApiError('not_found', msg('errors.noSuchSystem'));
  return row;
}

export function defaultSystemName(deviceId: string): string {
  return `System ${deviceId.slice(0, 8)}`;
}

const keyContext = (connectionId: string) => `connection:${connectionId}`;

export interface StoreConnectionInput {
  approvalId: string;
  apiKey: string;
  deviceIds: string[];
  /** Names known for some systems (the sandbox's fixtures); others get a default name. */
  names?: ReadonlyMap<string, string>;
  createdBy?: string;
  encryptionKey: Buffer;
  /** Runs in the same transaction once the systems are stored (the admin audit entry). */
  afterStore?: (tx: Database, systems: SystemPublic[]) => Promise<void>;
}

/**
 * Records a connection and the systems it covers. Connecting the same approval again replaces
 * its key and adds newly covered systems; names and time zones chosen by the admin are kept.
 */
export async function storeConnection(db: Database, input: StoreConnectionInput): Promise<{ connectionId: string; systems: SystemPublic[] }> {
  const fingerprint = sha256(input.approvalId);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: connections.id }).from(connections).where(eq(connections.approvalFingerprint, fingerprint)).limit(1);
    const connectionId = existing?.id ?? crypto.randomUUID();
    const apiKeyCiphertext = encryptSecret(input.apiKey, input.encryptionKey, keyContext(connectionId));
    if (existing) {
      await tx.update(connections).set({ apiKeyCiphertext, updatedAt: new Date() }).where(eq(connections.id, connectionId));
    } else {
      await tx.insert(connections).values({ id: connectionId, approvalFingerprint: fingerprint, apiKeyCiphertext, createdBy: input.createdBy ?? null });
    }
    const deviceIds = [...new Set(input.deviceIds)];
    if (deviceIds.length > 0) {
      await tx
        .insert(systems)
        .values(deviceIds.map((deviceId) => ({ deviceId, connectionId, name: input.names?.get(deviceId) ?? defaultSystemName(deviceId), timeZone: DEFAULT_TIME_ZONE })))
        .onConflictDoUpdate({ target: systems.deviceId, set: { connectionId, status: 'active', statusDetail: null, updatedAt: new Date() } });
    }
    const rows = deviceIds.length === 0 ? [] : await tx.select(systemPublicColumns).from(systems).where(inArray(systems.deviceId, deviceIds)).orderBy(asc(systems.name));
    await input.afterStore?.(tx, rows);
    return { connectionId, systems: rows };
  });
}

/** The API key for calls about one system. Server-only; never send the result anywhere but upstream. */
export async function readSystemApiKey(db: Database, deviceId: string, encryptionKey: Buffer): Promise<string | undefined> {
  const [row] = await db
    .select({ connectionId: connections.id, ciphertext: connections.apiKeyCiphertext })
    .from(systems)
    .innerJoin(connections, eq(connections.id, systems.connectionId))
    .where(eq(systems.deviceId, deviceId))
    .limit(1);
  if (!row) return undefined;
  return decryptSecret(row.ciphertext, encryptionKey, keyContext(row.connectionId));
}

/** Systems with their API key, decryption deferred: only the keys a caller uses are decrypted. */
export interface SystemsWithKeys {
  systems: SystemPublic[];
  /** Server-only; the result goes nowhere but upstream. Undefined for a system not in `systems`. */
  apiKeyOf: (deviceId: string) => string | undefined;
}

/**
 * Systems with their API key, as one read of a `readTogether`: those `visible` lets through
 * (lib/auth/access.ts visibleTo), the keys decrypted only when asked for. The resident
 * search asks every system the viewer may see, and read each key with a query of its own before.
 */
export function systemsWithKeysRead(visible: (deviceId: PgColumn) => SQL, encryptionKey: Buffer): JsonRead<SystemsWithKeys> {
  const rows = selectRows(
    queryBuilder
      .select(keyedColumns)
      .from(systems)
      .innerJoin(connections, eq(connections.id, systems.connectionId))
      .where(visible(systems.deviceId))
      // json_agg keeps a sorted subquery's order (PostgreSQL documents it as what works in practice).
      .orderBy(asc(systems.name), asc(systems.deviceId)),
  );
  return { query: rows.query, parse: (json) => withKeys(rows.parse(json), encryptionKey) };
}

const keyedColumns = { ...systemPublicColumns, connectionId: connections.id, ciphertext: connections.apiKeyCiphertext };
type KeyedRow = SystemPublic & { connectionId: string; ciphertext: string };

/** The systems, each key decrypted only when asked for (once per connection). */
function withKeys(rows: readonly KeyedRow[], encryptionKey: Buffer): SystemsWithKeys {
  const byDevice = new Map(rows.map((row) => [row.deviceId, row]));
  const keys = new Map<string, string>();
  return {
    systems: rows.map(({ connectionId: _connection, ciphertext: _ciphertext, ...system }) => system),
    apiKeyOf: (deviceId) => {
      const row = byDevice.get(deviceId);
      if (!row) return undefined;
      let key = keys.get(row.connectionId);
      if (key === undefined) {
        key = decryptSecret(row.ciphertext, encryptionKey, keyContext(row.connectionId));
        keys.set(row.connectionId, key);
      }
      return key;
    },
  };
}


/** The room kinds an admin set for a system's resources (the rest are guessed from their names). */
export async function readResourceKinds(db: Database, deviceId: string): Promise<Map<string, ResourceKind>> {
  const rows = await db.select({ resourceId: resourceKinds.resourceId, kind: resourceKinds.kind }).from(resourceKinds).where(eq(resourceKinds.deviceId, deviceId));
  return new Map(rows.map((r) => [r.resourceId, r.kind]));
}

/** Sets a resource's kind, or (null) forgets it so that the guess from its name applies again. */
export async function writeResourceKind(db: Database, deviceId: string, resourceId: string, kind: ResourceKind | null): Promise<void> {
  if (kind === null) {
    await db.delete(resourceKinds).where(and(eq(resourceKinds.deviceId, deviceId), eq(resourceKinds.resourceId, resourceId)));
    return;
  }
  await db
    .insert(resourceKinds)
    .values({ deviceId, resourceId, kind })
    .onConflictDoUpdate({ target: [resourceKinds.deviceId, resourceKinds.resourceId], set: { kind } });
}

/** The systems of these ids (those that exist), in one read. */
export async function listSystemsByIds(db: Database, deviceIds: readonly string[]): Promise<SystemPublic[]> {
  if (deviceIds.length === 0) return [];
  return db.select(systemPublicColumns).from(systems).where(equalsAnyUuid(systems.deviceId, deviceIds));
}

export interface SystemPlaces {
  deviceId: string;
  name: string;
  street: string | null;
  city: string | null;
  area: string | null;
}

/** Sets the names, streets, cities and areas of many systems in one statement (the admin's import); answers how many rows it changed. */
export async function updateSystemPlaces(db: Database, rows: readonly SystemPlaces[]): Promise<number> {
  if (rows.length === 0) return 0;
  const column = (values: readonly (string | null)[], type: 'uuid' | 'text') => sql`${arrayParam(values)}::${sql.raw(type)}[]`;
  const result = await db.execute(sql`
    UPDATE ${systems} SET name = v.name, street = v.street, city = v.city, area = v.area, updated_at = now()
    FROM unnest(${column(rows.map((r) => r.deviceId), 'uuid')}, ${column(rows.map((r) => r.name), 'text')}, ${column(rows.map((r) => r.street), 'text')}, ${column(rows.map((r) => r.city), 'text')}, ${column(rows.map((r) => r.area), 'text')})
      AS v(device_id, name, street, city, area)
    WHERE ${systems.deviceId} = v.device_id`);
  return (result as { affectedRows?: number; rowCount?: number | null }).affectedRows ?? (result as { rowCount?: number | null }).rowCount ?? 0;
}
