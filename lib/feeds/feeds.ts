import 'server-only';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { ApiError } from '@/lib/errors/api-error';
import { vkey } from '@/lib/i18n/validation-key';
import { checkSystemAccess } from '@/lib/auth/access';
import type { SessionUser } from '@/lib/auth/schemas';
import { getDb, type Database } from '@/lib/db';
import { calendarFeeds, FEED_SCOPES, users, type FeedScope } from '@/lib/db/schema';
import type { Locale } from '@/lib/i18n/config';
import { msg } from '@/lib/i18n/message';
import { log } from '@/lib/log';
import { loadedSnapshot } from '@/lib/mirror/snapshot';
import type { SystemPublic } from '@/lib/systems/schemas';
import { feedTokenHash, feedUrl, issueFeedToken } from './token';

// Ids are compared with what the database returns: lower case.
const id = z.uuid(vkey('validation.uuid')).transform((v) => v.toLowerCase());

/** Body of POST /api/feeds. */
export const createFeedInputSchema = z
  .object({ deviceId: id, scope: z.enum(FEED_SCOPES), resourceId: id.optional(), groupId: id.optional() })
  .strict();
export type CreateFeedInput = z.infer<typeof createFeedInputSchema>;

/** A feed as its room's or apartment's page lists it: never its token (the database has none). */
export interface FeedSummary {
  id: string;
  scope: FeedScope;
  deviceId: string;
  resourceId: string | null;
  groupId: string | null;
  createdAt: string;
  /** Null when the creator's account was removed. */
  createdByName: string | null;
  rotatedAt: string | null;
}

/** What a feed's creator (or whoever rotated it) sees once: the address with the token in it. */
export interface IssuedFeed {
  feed: FeedSummary;
  url: string;
}

export type FeedTarget = { scope: 'room'; resourceId: string } | { scope: 'apartment'; groupId: string };

/** Exactly one of resourceId and groupId, the one the scope names; else 400 with a sentence. */
export function feedTargetOf(input: CreateFeedInput): FeedTarget {
  if (input.scope === 'room' && input.resourceId && !input.groupId) return { scope: 'room', resourceId: input.resourceId };
  if (input.scope === 'apartment' && input.groupId && !input.resourceId) return { scope: 'apartment', groupId: input.groupId };
  throw new ApiError('bad_request', msg('feeds.errors.targetRequired', { scope: input.scope }));
}

/** A feed id from the path, or a 400. */
export function parseFeedId(value: string | undefined): string {
  const parsed = z.uuid().safeParse(value);
  if (!parsed.success) throw new ApiError('bad_request', msg('feeds.errors.feedIdNotUuid'));
  return parsed.data.toLowerCase();
}

const summaryColumns = {
  id: calendarFeeds.id,
  scope: calendarFeeds.scope,
  deviceId: calendarFeeds.deviceId,
  resourceId: calendarFeeds.resourceId,
  groupId: calendarFeeds.groupId,
  createdAt: calendarFeeds.createdAt,
  createdByName: users.name,
  rotatedAt: calendarFeeds.rotatedAt,
};

type SummaryRow = { [K in keyof typeof summaryColumns]: (typeof summaryColumns)[K]['_']['data'] | null } & { id: string; scope: FeedScope; deviceId: string; createdAt: Date };

function toSummary(row: SummaryRow): FeedSummary {
  return {
    id: row.id,
    scope: row.scope,
    deviceId: row.deviceId,
    resourceId: row.resourceId,
    groupId: row.groupId,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
    rotatedAt: row.rotatedAt ? row.rotatedAt.toISOString() : null,
  };
}

/** The room or apartment must be one the system has now (tampered ids → 404, a system still loading → 503). */
async function assertTargetExists(db: Database, deviceId: string, target: FeedTarget): Promise<void> {
  const snapshot = await loadedSnapshot(db, deviceId);
  if (target.scope === 'room' && !snapshot.resourceById.has(target.resourceId)) throw new ApiError('not_found', msg('errors.noSuchResource'));
  if (target.scope === 'apartment' && !snapshot.groupById.has(target.groupId)) throw new ApiError('not_found', msg('errors.noSuchApartment'));
}

async function summaryOf(db: Database, feedId: string): Promise<FeedSummary> {
  const [row] = await db.select(summaryColumns).from(calendarFeeds).leftJoin(users, eq(users.id, calendarFeeds.createdBy)).where(eq(calendarFeeds.id, feedId));
  if (!row) throw new ApiError('not_found', msg('feeds.errors.noSuchFeed'));
  return toSummary(row);
}

/**
 * Makes a feed for a room or an apartment of a system the user may see (an admin, or a manager
 * assigned to it). The token goes back once, in the address; the row keeps its SHA-256 and the
 * creator's language. A retry with the same Idempotency-Key makes no second feed: it is refused
 * with a sentence (the first answer's address cannot be given again: it is not stored).
 */
export async function createFeed(
  db: Database,
  args: { user: SessionUser; input: CreateFeedInput; locale: Locale; idempotencyKey: string; portalUrl: string },
): Promise<IssuedFeed> {
  const { user, input } = args;
  const target = feedTargetOf(input);
  await checkSystemAccess(db, user, input.deviceId);
  await assertTargetExists(db, input.deviceId, target);
  const { token, hash } = issueFeedToken();
  const [row] = await db
    .insert(calendarFeeds)
    .values({
      deviceId: input.deviceId,
      scope: target.scope,
      resourceId: target.scope === 'room' ? target.resourceId : null,
      groupId: target.scope === 'apartment' ? target.groupId : null,
      tokenHash: hash,
      locale: args.locale,
      idempotencyKey: args.idempotencyKey,
      createdBy: user.id,
    })
    .onConflictDoNothing({ target: [calendarFeeds.createdBy, calendarFeeds.idempotencyKey] })
    .returning({ id: calendarFeeds.id });
  if (!row) throw new ApiError('conflict', msg('feeds.errors.alreadyCreated'));
  log.info('calendar feed created', { feedId: row.id, deviceId: input.deviceId, scope: target.scope, userId: user.id });
  return { feed: await summaryOf(db, row.id), url: feedUrl(args.portalUrl, token) };
}

/** An active feed the user may manage: 404 for an unknown or revoked one, 403 for another system's. */
async function manageableFeed(db: Database, user: SessionUser, feedId: string): Promise<{ id: string; deviceId: string }> {
  const [feed] = await db
    .select({ id: calendarFeeds.id, deviceId: calendarFeeds.deviceId })
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.id, feedId), isNull(calendarFeeds.revokedAt)));
  if (!feed) throw new ApiError('not_found', msg('feeds.errors.noSuchFeed'));
  await checkSystemAccess(db, user, feed.deviceId);
  return feed;
}

/** A new token for the feed: the old address stops working with this statement (its hash is replaced). */
export async function rotateFeed(db: Database, args: { user: SessionUser; feedId: string; portalUrl: string }): Promise<IssuedFeed> {
  const feed = await manageableFeed(db, args.user, args.feedId);
  const { token, hash } = issueFeedToken();
  const [row] = await db
    .update(calendarFeeds)
    .set({ tokenHash: hash, rotatedAt: new Date() })
    .where(and(eq(calendarFeeds.id, feed.id), isNull(calendarFeeds.revokedAt)))
    .returning({ id: calendarFeeds.id });
  // Revoked between the check and the update.
  if (!row) throw new ApiError('not_found', msg('feeds.errors.noSuchFeed'));
  log.info('calendar feed rotated', { feedId: feed.id, deviceId: feed.deviceId, userId: args.user.id });
  return { feed: await summaryOf(db, feed.id), url: feedUrl(args.portalUrl, token) };
}

/** Ends the feed: its address answers 404 from now on. The row stays (who made it, when it ended). */
export async function revokeFeed(db: Database, args: { user: SessionUser; feedId: string }): Promise<void> {
  const feed = await manageableFeed(db, args.user, args.feedId);
  const [row] = await db
    .update(calendarFeeds)
    .set({ revokedAt: new Date() })
    .where(and(eq(calendarFeeds.id, feed.id), isNull(calendarFeeds.revokedAt)))
    .returning({ id: calendarFeeds.id });
  if (!row) throw new ApiError('not_found', msg('feeds.errors.noSuchFeed'));
  log.info('calendar feed revoked', { feedId: feed.id, deviceId: feed.deviceId, userId: args.user.id });
}

/** A room's or an apartment's active feeds, newest first, for a user who may see the system. */
export async function listFeeds(db: Database, user: SessionUser, deviceId: string, target: FeedTarget): Promise<FeedSummary[]> {
  await checkSystemAccess(db, user, deviceId);
  return readFeeds(db, deviceId, target);
}

async function readFeeds(db: Database, deviceId: string, target: FeedTarget): Promise<FeedSummary[]> {
  const rows = await db
    .select(summaryColumns)
    .from(calendarFeeds)
    .leftJoin(users, eq(users.id, calendarFeeds.createdBy))
    .where(
      and(
        eq(calendarFeeds.deviceId, deviceId),
        isNull(calendarFeeds.revokedAt),
        target.scope === 'room' ? eq(calendarFeeds.resourceId, target.resourceId.toLowerCase()) : eq(calendarFeeds.groupId, target.groupId.toLowerCase()),
      ),
    )
    .orderBy(desc(calendarFeeds.createdAt), desc(calendarFeeds.id));
  return rows.map(toSummary);
}

/** The active feed a token opens, or undefined (unknown, malformed and revoked look the same). */
export async function findActiveFeed(db: Database, token: string) {
  const [feed] = await db
    .select({
      id: calendarFeeds.id,
      deviceId: calendarFeeds.deviceId,
      scope: calendarFeeds.scope,
      resourceId: calendarFeeds.resourceId,
      groupId: calendarFeeds.groupId,
      locale: calendarFeeds.locale,
    })
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.tokenHash, feedTokenHash(token)), isNull(calendarFeeds.revokedAt)));
  return feed;
}

/**
 * listFeeds on the portal's database, for pages: `system` is what the page's access check
 * (pageSystem) returned, so access is not read again.
 */
export async function listFeedsForPage(system: SystemPublic, target: FeedTarget): Promise<FeedSummary[]> {
  return readFeeds((await getDb()).db, system.deviceId, target);
}
