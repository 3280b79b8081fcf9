import 'server-only';
import { desc, sql } from 'drizzle-orm';
import type { Database } from '@/lib/db';
import { adminAudit, type AuditTargetType } from '@/lib/db/schema';

/** Who did it: the signed-in admin (kept by id and by name; the account may be deleted later). */
export interface Actor {
  /** Null for the operator at the server's command line, who has no account. */
  id: string | null;
  name: string;
}

/** `npm run admin`: whoever holds the server's shell, named so on the audit page. */
export const COMMAND_LINE_ACTOR: Actor = { id: null, name: 'Command line (npm run admin)' };

export const AUDIT_ACTIONS = [
  'system.connect',
  'system.disconnect',
  'system.update',
  'system.resource-kind',
  'system.booking-rules',
  'system.import',
  'display.create',
  'display.update',
  'display.rotate',
  'display.revoke',
  'account.create',
  'account.deactivate',
  'account.reactivate',
  'account.delete',
  'account.password-reset',
  'account.systems',
  'account.systems-bulk',
  'retention.settings',
  'retention.run',
  'personal-data.extract',
  'personal-data.erase',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntryInput {
  action: AuditAction;
  targetType: AuditTargetType;
  targetId?: string;
  targetName?: string;
  /** What changed, for the log page (never a secret: no passwords, keys or approval ids). */
  detail?: Record<string, unknown>;
}

/** An audit entry's target id for a resident: their system and their user id in it (a user id alone is one system's). */
export const residentAuditTargetId = (who: { deviceId: string; userId: string }): string => `${who.deviceId}/${who.userId}`;

/** Records one admin action. Call it with the transaction that made the change, so both or neither happen. */
export async function recordAudit(tx: Database, actor: Actor, entry: AuditEntryInput): Promise<void> {
  await tx.insert(adminAudit).values({
    actorId: actor.id,
    actorName: actor.name,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    targetName: entry.targetName ?? null,
    detail: entry.detail ?? null,
  });
}

export interface AuditEntry {
  id: number;
  actorId: string | null;
  actorName: string;
  action: string;
  targetType: AuditTargetType;
  targetId: string | null;
  targetName: string | null;
  detail: Record<string, unknown> | null;
  createdAt: Date;
}

export const AUDIT_PAGE_SIZE = 50;

export interface AuditPage {
  entries: AuditEntry[];
  page: number;
  pageCount: number;
  total: number;
}

/** One page of the log, newest first (page 1 is the newest). A page past the end is empty. */
export async function listAudit(db: Database, page: number, pageSize = AUDIT_PAGE_SIZE): Promise<AuditPage> {
  const current = Math.max(1, Math.floor(page));
  const [entries, [count]] = await Promise.all([
    db
      .select()
      .from(adminAudit)
      .orderBy(desc(adminAudit.createdAt), desc(adminAudit.id))
      .limit(pageSize)
      .offset((current - 1) * pageSize),
    db.select({ n: sql<number>`count(*)::int` }).from(adminAudit),
  ]);
  const total = count?.n ?? 0;
  return { entries, page: current, pageCount: Math.max(1, Math.ceil(total / pageSize)), total };
}

/** One entry per system an approval connected (the approval id itself is a grant: never logged). */
export async function recordConnectAudit(tx: Database, actor: Actor, systems: readonly { deviceId: string; name: string }[]): Promise<void> {
  for (const system of systems) {
    await recordAudit(tx, actor, { action: 'system.connect', targetType: 'system', targetId: system.deviceId, targetName: system.name });
  }
}
