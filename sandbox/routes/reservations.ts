import { requireDevice } from '../auth';
import type { KeyedCall, Row, SandboxContext } from '../context';
import { iso, toDate } from '../encoding';
import type { Shapes } from '../faults';
import { badRequest, checkValue, json, notFound, UUID_RE } from '../http';
import { href, page, type PageSpec } from '../paging';
import { shapeEnums, shapeIds, shapeItems, shapeLabels, shapeScheduleType, withExtras, writeTime } from '../shapes';

// The reads of /v1: a system's lists page by page, and the user lookups.

// Display-only fields that the `nullLabels`/`missingOptional`/`emptyLabels` shapes blank out.
const RESOURCE_LABELS = ['name', 'description'] as const;
const GROUP_LABELS = ['name', 'apartmentId', 'referenceId'] as const;
const USER_LABELS = ['name', 'email'] as const;
// GUIDs that the `idCase`/`bracedIds` shapes spell, per kind of item.
const RESERVATION_IDS = ['id', 'userId', 'ownerId', 'resourceId', 'deviceId'] as const;
const SCHEDULE_IDS = ['id', 'deviceId'] as const;
const RESOURCE_IDS = ['id', 'deviceId', 'timeScheduleId'] as const;
const GROUP_IDS = ['id', 'deviceId'] as const;
const USER_IDS = ['deviceId', 'userId', 'userGroupId', 'reservationResources'] as const;

const reservationDto = (r: Row, shapes: Shapes) => ({
  id: r.id, userId: r.user_id ?? null, ownerId: r.owner_id ?? null, ownerType: r.owner_type, status: r.status,
  resourceId: r.resource_id, startTime: writeTime(toDate(r.start_time), shapes, iso(r.start_time)),
  endTime: writeTime(toDate(r.end_time), shapes, iso(r.end_time)), deviceId: r.device_id,
});

/** A page of one system's list; the key must cover the system of the path's `:deviceId`. */
async function systemList(ctx: SandboxContext, { url, param, key }: KeyedCall, spec: Omit<PageSpec, 'deviceId'>): Promise<Response> {
  const deviceId = param('deviceId');
  requireDevice(key.deviceIds, deviceId);
  return page(ctx, url, { ...spec, deviceId });
}

/** GET /v1/reservations/{deviceId}/all */
export async function listReservations(ctx: SandboxContext, call: KeyedCall): Promise<Response> {
  const shapes = ctx.faults.shapes;
  return systemList(ctx, call, {
    kind: 'reservations', table: 'sandbox.reservations', field: 'reservations', select: '*',
    map: (r) => reservationDto(r, shapes), perItem: (r, i) => shapeIds(shapeEnums(r, i, shapes), RESERVATION_IDS, shapes),
  });
}

/** GET /v1/reservations/timeschedules/{deviceId}/all */
export async function listTimeSchedules(ctx: SandboxContext, call: KeyedCall): Promise<Response> {
  const shapes = ctx.faults.shapes;
  // unlistedSchedule: the schedule of the system's last room is left out of the list.
  const unlisted = shapes.unlistedSchedule ? await lastRoomSchedule(ctx, call.param('deviceId')) : null;
  return systemList(ctx, call, {
    kind: 'timeSchedules', table: 'sandbox.time_schedules', field: 'timeSchedules', select: 'id, device_id, schedule',
    map: (r) => ({ id: r.id, deviceId: r.device_id, scheduleType: 'Week', schedule: r.schedule }),
    perItem: (r, i) => shapeIds(shapeScheduleType(r, i, shapes), SCHEDULE_IDS, shapes),
    ...(unlisted ? { leaveOut: (row: Row) => row.id === unlisted } : {}),
  });
}

/** The time schedule of a system's last room (by seq), or null (an unknown system, or not a UUID). */
async function lastRoomSchedule(ctx: SandboxContext, deviceId: string): Promise<string | null> {
  if (!UUID_RE.test(deviceId)) return null;
  const { rows } = await ctx.sql.query(`SELECT time_schedule_id::text AS id FROM sandbox.resources WHERE device_id = $1 ORDER BY seq DESC LIMIT 1`, [deviceId]);
  return (rows[0]?.id as string | undefined) ?? null;
}

/** GET /v1/reservations/resources/{deviceId}/all */
export async function listResources(ctx: SandboxContext, call: KeyedCall): Promise<Response> {
  return systemList(ctx, call, {
    kind: 'resources', table: 'sandbox.resources', field: 'resources', select: 'id, device_id, name, description, time_schedule_id',
    map: (r) => ({ id: r.id, name: r.name, description: r.description, deviceId: r.device_id, timeScheduleId: r.time_schedule_id }),
    perItem: (r, i) => shapeIds(shapeLabels(r, i, RESOURCE_LABELS, ctx.faults.shapes), RESOURCE_IDS, ctx.faults.shapes),
  });
}

/** GET /v1/usergroups/{deviceId}/all */
export async function listUserGroups(ctx: SandboxContext, call: KeyedCall): Promise<Response> {
  return systemList(ctx, call, {
    kind: 'userGroups', table: 'sandbox.user_groups', field: 'userGroups', select: 'id, device_id, name, apartment_id, reference_id',
    map: (r) => ({ id: r.id, name: r.name, apartmentId: r.apartment_id, referenceId: r.reference_id, deviceId: r.device_id }),
    perItem: (r, i) => shapeIds(shapeLabels(r, i, GROUP_LABELS, ctx.faults.shapes), GROUP_IDS, ctx.faults.shapes),
  });
}

function includeResources(url: URL): boolean {
  const v = url.searchParams.get('includeReservationResources');
  if (v === null) return true;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw badRequest('includeReservationResources must be true or false.');
}

/** A `{ userAccounts }` answer (lookups, users/fetch) with its shapes. */
function userAccounts(ctx: SandboxContext, url: URL, accounts: Row[]): Response {
  const shapes = ctx.faults.shapes;
  const items = shapeItems(accounts, shapes, href(url), (u, i) => shapeIds(shapeLabels(u, i, USER_LABELS, shapes), USER_IDS, shapes));
  return json(withExtras({ userAccounts: items }, shapes, href(url)));
}

async function lookupUsers(ctx: SandboxContext, url: URL, deviceIds: string[], where: string, value: string, withResources: boolean): Promise<Response> {
  const { rows } = await ctx.sql.query(
    `SELECT u.device_id, u.id, u.name, u.email, u.user_group_id,
            ARRAY(SELECT r.id::text FROM sandbox.resources r WHERE r.device_id = u.device_id
                  AND NOT (r.id = ANY(u.excluded_resource_ids)) ORDER BY r.seq) AS resource_ids
     FROM sandbox.users u LEFT JOIN sandbox.user_groups g ON g.id = u.user_group_id
     WHERE u.device_id = ANY($1::uuid[]) AND ${where} ORDER BY u.device_id, u.seq`,
    [deviceIds, value],
  );
  return userAccounts(ctx, url, rows.map((u) => ({
    deviceId: u.device_id, userId: u.id, name: u.name, email: u.email, userGroupId: u.user_group_id ?? null,
    ...(withResources ? { reservationResources: u.resource_ids } : {}),
  })));
}

/** GET /v1/reservations/users/reference/{referenceId} */
export async function usersByReference(ctx: SandboxContext, { url, param, key }: KeyedCall): Promise<Response> {
  return lookupUsers(ctx, url, key.deviceIds, 'g.reference_id = $2', checkValue('referenceId', param('referenceId')), includeResources(url));
}

/** GET /v1/reservations/users/email/{email} */
export async function usersByEmail(ctx: SandboxContext, { url, param, key }: KeyedCall): Promise<Response> {
  return lookupUsers(ctx, url, key.deviceIds, 'lower(u.email) = lower($2)', checkValue('email', param('email')), includeResources(url));
}

/** GET /v1/reservations/users/apartment/{apartmentId} */
export async function usersByApartment(ctx: SandboxContext, { url, param, key }: KeyedCall): Promise<Response> {
  return lookupUsers(ctx, url, key.deviceIds, 'g.apartment_id = $2', checkValue('apartmentId', param('apartmentId')), includeResources(url));
}

/** GET /v1/reservations/users/fetch/{deviceId} */
export async function fetchUsers(ctx: SandboxContext, { url, param, key }: KeyedCall): Promise<Response> {
  const deviceId = param('deviceId');
  requireDevice(key.deviceIds, deviceId);
  const { rows } = await ctx.sql.query(`SELECT device_id, id, name, email, user_group_id FROM sandbox.users WHERE device_id = $1 ORDER BY seq`, [deviceId]);
  return userAccounts(ctx, url, rows.map((u) => ({ deviceId: u.device_id, userId: u.id, name: u.name, email: u.email, userGroupId: u.user_group_id ?? null })));
}

/** GET /v1/reservations/users/{userId}/reservations */
export async function userReservations(ctx: SandboxContext, { url, param, key }: KeyedCall): Promise<Response> {
  const userId = checkValue('userId', param('userId'));
  if (!UUID_RE.test(userId)) throw badRequest('userId must be a UUID.');
  const { rows: users } = await ctx.sql.query(`SELECT 1 FROM sandbox.users WHERE id = $1 AND device_id = ANY($2::uuid[])`, [userId, key.deviceIds]);
  if (users.length === 0) throw notFound('No such user among the systems this key covers.');
  const { rows } = await ctx.sql.query(`SELECT * FROM sandbox.reservations WHERE user_id = $1 ORDER BY start_time, seq`, [userId]);
  const shapes = ctx.faults.shapes;
  return json(shapeItems(rows.map((r) => reservationDto(r, shapes)), shapes, href(url), (r, i) => shapeIds(shapeEnums(r, i, shapes), RESERVATION_IDS, shapes)));
}
