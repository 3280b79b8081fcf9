import 'server-only';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { recordAudit, type Actor, type AuditAction } from '@/lib/admin/audit';
import { checkSystemAccess } from '@/lib/auth/access';
import { displayNotice } from '@/lib/auth/access-notices';
import { notifyAccessChange } from '@/lib/auth/users';
import type { SessionUser } from '@/lib/auth/schemas';
import { issueUrlToken, sha256, URL_TOKEN_PATTERN } from '@/lib/crypto';
import type { Database } from '@/lib/db';
import { DISPLAY_LOCALES, displays, users, type DisplayLocale } from '@/lib/db/schema';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { vkey } from '@/lib/i18n/validation-key';
import { log } from '@/lib/log';
import { loadedSnapshot } from '@/lib/mirror/snapshot';

// Ids are compared with what the database returns: lower case.
const id = z.uuid(vkey('validation.uuid')).transform((v) => v.toLowerCase());
const name = z
  .string()
  .trim()
  .min(1, vkey('validation.displayName'))
  .max(80, vkey('validation.displayName'));

/** Body of POST /api/displays: a room (one id), some rooms, or the whole building (no ids). */
export const createDisplayInputSchema = z
  .object({
    deviceId: id,
    name,
    resourceIds: z.array(id).min(1).max(200).optional(),
    locale: z.enum(DISPLAY_LOCALES).default('sv'),
    showApartments: z.boolean().default(false),
  })
  .strict();
export type CreateDisplayInput = z.input<typeof createDisplayInputSchema>;

/** Body of PATCH /api/displays/{id}: what may change without a new address. */
export const updateDisplayInputSchema = z
  .object({ name: name.optional(), locale: z.enum(DISPLAY_LOCALES).optional(), showApartments: z.boolean().optional() })
  .strict();
export type UpdateDisplayInput = z.infer<typeof updateDisplayInputSchema>;

/** The columns a display opens with at its token, and its system's page lists (with its history). */
const activeColumns = {
  id: displays.id,
  deviceId: displays.deviceId,
  name: displays.name,
  resourceIds: displays.resourceIds,
  locale: displays.locale,
  showApartments: displays.showApartments,
};
const summaryColumns = { ...activeColumns, createdAt: displays.createdAt, createdByName: users.name, rotatedAt: displays.rotatedAt };

const selectSummaries = (db: Database) => db.select(summaryColumns).from(displays).leftJoin(users, eq(users.id, displays.createdBy));
type SummaryRow = Awaited<ReturnType<typeof selectSummaries>>[number];

/** A display as its system's page lists it: never its token (the database has none); times as ISO. */
export type DisplaySummary = Omit<SummaryRow, 'createdAt' | 'rotatedAt'> & { createdAt: string; rotatedAt: string | null };

/** What the creator (or whoever rotated it) sees once: the address with the token in it. */
export interface IssuedDisplay {
  display: DisplaySummary;
  url: string;
}

/** The display's address: /display/{token}. The token is the only key; keep it like a password. */
export function displayUrl(portalUrl: string, token: string): string {
  return new URL(`/display/${token}`, portalUrl).toString();
}

export function isDisplayToken(value: string): boolean {
  return URL_TOKEN_PATTERN.test(value);
}

/** A display id from the path, or a 400. */
export function parseDisplayId(value: string | undefined): string {
  const parsed = z.uuid().safeParse(value);
  if (!parsed.success) throw new ApiError('bad_request', msg('displays.errors.displayIdNotUuid'));
  return parsed.data.toLowerCase();
}

function toSummary(row: SummaryRow): DisplaySummary {
  return {
    ...row,
    resourceIds: row.resourceIds ? [...row.resourceIds] : null,
    createdAt: row.createdAt.toISOString(),
    rotatedAt: row.rotatedAt ? row.rotatedAt.toISOString() : null,
  };
}

async function summaryOf(db: Database, displayId: string): Promise<DisplaySummary> {
  const [row] = await selectSummaries(db).where(eq(displays.id, displayId));
  if (!row) throw new ApiError('not_found', msg('displays.errors.noSuchDisplay'));
  return toSummary(row);
}

/** The rooms must be ones the system has now (tampered ids → 404, a system still loading → 503). */
async function assertRoomsExist(db: Database, deviceId: string, resourceIds: readonly string[] | undefined): Promise<void> {
  if (!resourceIds) return;
  const snapshot = await loadedSnapshot(db, deviceId);
  if (resourceIds.some((r) => !snapshot.resourceById.has(r))) throw new ApiError('not_found', msg('errors.noSuchResource'));
}

const actorOf = (user: SessionUser): Actor => ({ id: user.id, name: user.name });

/**
 * Makes a display for a system the user may see (an admin, or a manager assigned to it). The token
 * goes back once, in the address; the row keeps its SHA-256. Recorded in the audit log in the same
 * transaction. A retry with the same Idempotency-Key makes no second display: it is refused with a
 * sentence (the first answer's address cannot be given again).
 */
export async function createDisplay(db: Database, args: { user: SessionUser; input: CreateDisplayInput; idempotencyKey: string; portalUrl: string }): Promise<IssuedDisplay> {
  const input = createDisplayInputSchema.parse(args.input);
  const system = await checkSystemAccess(db, args.user, input.deviceId);
  const resourceIds = input.resourceIds ? [...new Set(input.resourceIds)] : undefined;
  await assertRoomsExist(db, input.deviceId, resourceIds);
  const { token, hash } = issueUrlToken();
  const displayId = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(displays)
      .values({ deviceId: input.deviceId, name: input.name, resourceIds: resourceIds ?? null, locale: input.locale, showApartments: input.showApartments, tokenHash: hash, idempotencyKey: args.idempotencyKey, createdBy: args.user.id })
      .onConflictDoNothing({ target: [displays.createdBy, displays.idempotencyKey] })
      .returning({ id: displays.id });
    // A retry of a create that went through: its address was shown then and is not stored.
    if (!row) throw new ApiError('conflict', msg('displays.errors.alreadyCreated'));
    await recordAudit(tx, actorOf(args.user), {
      action: 'display.create',
      targetType: 'display',
      targetId: row.id,
      targetName: input.name,
      detail: { system: system.name, rooms: resourceIds?.length ?? null, showApartments: input.showApartments },
    });
    return row.id;
  });
  log.info('display created', { displayId, deviceId: input.deviceId, userId: args.user.id });
  return { display: await summaryOf(db, displayId), url: displayUrl(args.portalUrl, token) };
}

type Manageable = Pick<SummaryRow, 'id' | 'deviceId' | 'name' | 'locale' | 'showApartments'>;

/** An active display the user may manage: 404 for an unknown or revoked one, 403 for another system's. */
async function manageable(db: Database, user: SessionUser, displayId: string): Promise<Manageable> {
  const [row] = await db
    .select({ id: displays.id, deviceId: displays.deviceId, name: displays.name, locale: displays.locale, showApartments: displays.showApartments })
    .from(displays)
    .where(and(eq(displays.id, displayId), isNull(displays.revokedAt)));
  if (!row) throw new ApiError('not_found', msg('displays.errors.noSuchDisplay'));
  await checkSystemAccess(db, user, row.deviceId);
  return row;
}

/**
 * Changes an active display and records it in the audit log, both in one transaction: a display
 * revoked between the check and the change is a 404 and nothing is recorded.
 */
async function changeAudited(
  db: Database,
  user: SessionUser,
  display: Manageable,
  change: Partial<typeof displays.$inferInsert>,
  audit: { action: Extract<AuditAction, `display.${string}`>; targetName?: string; detail?: Record<string, unknown> },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(displays)
      .set(change)
      .where(and(eq(displays.id, display.id), isNull(displays.revokedAt)))
      .returning({ id: displays.id });
    if (!row) throw new ApiError('not_found', msg('displays.errors.noSuchDisplay'));
    // Its open screens' streams re-check their token now (lib/displays/stream.ts), not at the next tick:
    // switched off when revoked or rotated, a reload of the page when renamed or its language changed.
    await notifyAccessChange(tx, displayNotice(display.id));
    await recordAudit(tx, actorOf(user), { action: audit.action, targetType: 'display', targetId: display.id, targetName: audit.targetName ?? display.name, detail: audit.detail });
  });
  log.info('display changed', { action: audit.action, displayId: display.id, deviceId: display.deviceId, userId: user.id });
}

/**
 * Renames it or changes its language or whether apartments show; the address stays. What changed
 * (from → to) is recorded in the audit log, as creating, rotating and revoking are; a request that
 * changes nothing records nothing.
 */
export async function updateDisplay(db: Database, args: { user: SessionUser; displayId: string; input: UpdateDisplayInput }): Promise<DisplaySummary> {
  const display = await manageable(db, args.user, args.displayId);
  const input = updateDisplayInputSchema.parse(args.input);
  const changed: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of ['name', 'locale', 'showApartments'] as const) {
    const to = input[key];
    if (to !== undefined && to !== display[key]) changed[key] = { from: display[key], to };
  }
  if (Object.keys(changed).length > 0) {
    await changeAudited(db, args.user, display, input, { action: 'display.update', targetName: input.name ?? display.name, detail: changed });
  }
  return summaryOf(db, display.id);
}

/** A new address: the old one stops working with this statement (its hash is replaced). */
export async function rotateDisplay(db: Database, args: { user: SessionUser; displayId: string; portalUrl: string }): Promise<IssuedDisplay> {
  const display = await manageable(db, args.user, args.displayId);
  const { token, hash } = issueUrlToken();
  await changeAudited(db, args.user, display, { tokenHash: hash, rotatedAt: new Date() }, { action: 'display.rotate' });
  return { display: await summaryOf(db, display.id), url: displayUrl(args.portalUrl, token) };
}

/** Switches it off: its address shows "switched off" from now on. The row stays (who made it, when it ended). */
export async function revokeDisplay(db: Database, args: { user: SessionUser; displayId: string }): Promise<void> {
  const display = await manageable(db, args.user, args.displayId);
  await changeAudited(db, args.user, display, { revokedAt: new Date() }, { action: 'display.revoke' });
}

/** A system's active displays, newest first, for a user who may see the system. */
export async function listDisplays(db: Database, user: SessionUser, deviceId: string): Promise<DisplaySummary[]> {
  await checkSystemAccess(db, user, deviceId);
  const rows = await selectSummaries(db)
    .where(and(eq(displays.deviceId, deviceId), isNull(displays.revokedAt)))
    .orderBy(desc(displays.createdAt), desc(displays.id));
  return rows.map(toSummary);
}

/** What an active display's screen needs: never who made it, nor its token. */
export type ActiveDisplay = Pick<SummaryRow, keyof typeof activeColumns>;

/**
 * What a token opens: the active display, `revoked` (with the display's language) for one switched
 * off, or undefined for a token never issued or rotated away (an open screen, whose updates then
 * find nothing, says "switched off" for both). A revoked display's hash stays.
 */
export async function displayOfToken(db: Database, token: string): Promise<ActiveDisplay | { revoked: true; locale: DisplayLocale } | undefined> {
  if (!isDisplayToken(token)) return undefined;
  const [row] = await db
    .select({ ...activeColumns, revokedAt: displays.revokedAt })
    .from(displays)
    .where(eq(displays.tokenHash, sha256(token)));
  if (!row) return undefined;
  if (row.revokedAt) return { revoked: true, locale: row.locale };
  const { revokedAt: _revoked, ...display } = row;
  return display;
}
