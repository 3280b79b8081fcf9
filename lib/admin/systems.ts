import 'server-only';
import { and, count, eq, inArray } from 'drizzle-orm';
import type { Database } from '@/lib/db';
import { connections, managerSystems, reservationRequests, systems } from '@/lib/db/schema';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { notifyAccessChange } from '@/lib/auth/users';
import { deleteMirrorOf, readReservations, readResources, readTimeSchedules } from '@/lib/mirror/store';
import { detectedBasis, scheduleBasisFit } from '@/lib/schedule/basis-fit';
import type { ScheduleBasis } from '@/lib/schedule/types';
import { guessResourceKind, type ResourceKind } from '@/lib/schedule/resource-kind';
import type { SystemPublic, SystemUpdate } from '@/lib/systems/schemas';
import { getSystem, readMailSettings, readResourceKinds, updateMailSettings, updateRequestBudget, updateSystem, writeResourceKind, type SystemMailSettings } from '@/lib/systems/store';
import { recordAudit, type Actor } from './audit';

const DAY_MS = 86_400_000;

/** The settings an update records, before and after. */
const SETTING_KEYS = ['name', 'street', 'city', 'area', 'timeZone', 'bookingHorizonDays', 'scheduleBasis', 'bookingQuota'] as const;

/** Changes a system's settings and records what changed (before and after). */
export async function updateSystemSettings(db: Database, actor: Actor, deviceId: string, update: SystemUpdate): Promise<SystemPublic> {
  return db.transaction(async (tx) => {
    const before = await getSystem(tx, deviceId);
    const after = await updateSystem(tx, deviceId, update);
    if (!before) return after;
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const key of SETTING_KEYS) {
      if (before[key] !== after[key]) changes[key] = { from: before[key], to: after[key] };
    }
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, actor, { action: 'system.update', targetType: 'system', targetId: deviceId, targetName: after.name, detail: changes });
    }
    return after;
  });
}

/**
 * Sets a system's own upstream request budget per hour (null: back to MIRROR_REQUEST_BUDGET_PER_HOUR),
 * within what the service's owner allows (MIRROR_REQUEST_BUDGET_MAX_PER_HOUR, by default the
 * default itself: then an admin may only lower it); recorded with before and after.
 */
export async function updateSystemRequestBudget(
  db: Database,
  actor: Actor,
  deviceId: string,
  perHour: number | null,
  limits: { defaultPerHour: number; allowedPerHour: number },
): Promise<{ name: string; perHour: number }> {
  const unlimited = limits.allowedPerHour === 0;
  if (perHour !== null && !unlimited && perHour > limits.allowedPerHour) {
    throw new ApiError('unprocessable_entity', msg('errors.requestBudgetAboveAllowance', { max: limits.allowedPerHour }));
  }
  return db.transaction(async (tx) => {
    const { name, before } = await updateRequestBudget(tx, deviceId, perHour);
    if (before !== perHour) {
      await recordAudit(tx, actor, {
        action: 'system.update',
        targetType: 'system',
        targetId: deviceId,
        targetName: name,
        // null: the setting's default (worded by the log page).
        detail: { requestBudgetPerHour: { from: before, to: perHour } },
      });
    }
    return { name, perHour: perHour ?? limits.defaultPerHour };
  });
}

/** Turns residents' e-mail on or off for a system and sets its language; recorded with before and after. */
export async function updateSystemMailSettings(db: Database, actor: Actor, deviceId: string, settings: SystemMailSettings): Promise<SystemMailSettings & { name: string }> {
  return db.transaction(async (tx) => {
    const before = (await readMailSettings(tx)).get(deviceId);
    const after = await updateMailSettings(tx, deviceId, settings);
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const key of ['residentMail', 'mailLocale'] as const) {
      if (before && before[key] !== after[key]) changes[key] = { from: String(before[key]), to: String(after[key]) };
    }
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, actor, { action: 'system.update', targetType: 'system', targetId: deviceId, targetName: after.name, detail: changes });
    }
    return after;
  });
}

/**
 * Sets what kind of room a resource is (the next-free filters use it), or with null goes back to
 * the guess from its name; recorded with before and after. The resource must be in the system's
 * mirror (404 otherwise). Returns the kind now in effect.
 */
export async function setResourceKind(db: Database, actor: Actor, deviceId: string, resourceId: string, kind: ResourceKind | null): Promise<{ resourceName: string; kind: ResourceKind; guessed: boolean }> {
  return db.transaction(async (tx) => {
    const system = await getSystem(tx, deviceId);
    if (!system) throw new ApiError('not_found', msg('errors.noSuchSystem'));
    const resource = (await readResources(tx, deviceId)).find((r) => r.id === resourceId.toLowerCase());
    if (!resource) throw new ApiError('not_found', msg('errors.noSuchRoom', { system: system.name }));
    const guess = guessResourceKind(resource.name, resource.description);
    const before = (await readResourceKinds(tx, deviceId)).get(resource.id) ?? null;
    if (before === kind) return { resourceName: resource.name, kind: kind ?? guess, guessed: kind === null };
    await writeResourceKind(tx, deviceId, resource.id, kind);
    await recordAudit(tx, actor, {
      action: 'system.resource-kind',
      targetType: 'system',
      targetId: deviceId,
      targetName: system.name,
      detail: { resourceId: resource.id, resourceName: resource.name, from: before ?? guess, to: kind },
    });
    return { resourceName: resource.name, kind: kind ?? guess, guessed: kind === null };
  });
}

export interface DisconnectResult {
  system: SystemPublic;
  /** Managers who had it assigned (they no longer see it). */
  unassigned: number;
}

/**
 * Disconnects a system. Refused (409) while booking requests for it still wait for the service's
 * outcome: their answers could no longer be matched to a system, so the admin waits a moment.
 * Otherwise, in one transaction: its mirrored data goes, managers lose it (their open streams
 * re-check), the system row goes, and its connection (with the encrypted API key) goes when no other
 * system uses it. Settled booking requests stay, as history. Connecting the approval again brings
 * it back, with default settings.
 */
export async function disconnectSystem(db: Database, actor: Actor, deviceId: string): Promise<DisconnectResult> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ connectionId: systems.connectionId }).from(systems).where(eq(systems.deviceId, deviceId)).for('update').limit(1);
    const system = row ? await getSystem(tx, deviceId) : undefined;
    if (!row || !system) throw new ApiError('not_found', msg('errors.noSuchSystem'));
    const [open] = await tx
      .select({ n: count() })
      .from(reservationRequests)
      .where(and(eq(reservationRequests.deviceId, deviceId), inArray(reservationRequests.status, ['sending', 'pending'])));
    const waiting = open?.n ?? 0;
    if (waiting > 0) {
      throw new ApiError('conflict', msg('errors.disconnectWhileWaiting', { system: system.name, count: waiting }));
    }
    const managers = await tx.select({ userId: managerSystems.userId }).from(managerSystems).where(eq(managerSystems.deviceId, deviceId));
    await deleteMirrorOf(tx, deviceId);
    await tx.delete(systems).where(eq(systems.deviceId, deviceId)); // manager_systems rows cascade
    const [sibling] = await tx.select({ deviceId: systems.deviceId }).from(systems).where(eq(systems.connectionId, row.connectionId)).limit(1);
    if (!sibling) await tx.delete(connections).where(eq(connections.id, row.connectionId));
    for (const { userId } of managers) await notifyAccessChange(tx, userId);
    await recordAudit(tx, actor, {
      action: 'system.disconnect',
      targetType: 'system',
      targetId: deviceId,
      targetName: system.name,
      detail: { unassignedManagers: managers.length, apiKeyRemoved: !sibling },
    });
    return { system, unassigned: managers.length };
  });
}

/**
 * The basis (UTC or local) a system's bookings fall on, when they tell (lib/schedule/basis-fit.ts),
 * else null: from the bookings of the four weeks around `now` in its mirror.
 */
export async function detectedBasisOf(db: Database, system: Pick<SystemPublic, 'deviceId' | 'timeZone'>, now: Date): Promise<ScheduleBasis | null> {
  const range = { from: new Date(now.getTime() - 14 * DAY_MS), to: new Date(now.getTime() + 14 * DAY_MS) };
  const [resources, schedules, reservations] = await Promise.all([readResources(db, system.deviceId), readTimeSchedules(db, system.deviceId), readReservations(db, system.deviceId, range)]);
  const fit = scheduleBasisFit({ timeZone: system.timeZone, schedules: new Map(schedules.map((s) => [s.id, s.schedule])), resources, reservations });
  return detectedBasis(fit);
}
