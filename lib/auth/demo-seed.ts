import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '@/lib/db';
import { appSettings, users } from '@/lib/db/schema';
import { log } from '@/lib/log';
import { connectApproval, type ApiKeyGenerator } from '@/lib/systems/connect';
import { hashPassword } from './passwords';
import { addManagerSystems, createUser, findUserByEmail } from './users';

/** Demo logins of sandbox mode (also in the README). */
export const DEMO_ADMIN_EMAIL = 'admin@example.com';
export const DEMO_MANAGER_EMAIL = 'manager@example.com';
export const DEMO_PASSWORD = 'portal-demo';

const SEED_KEY = 'demo_seed';
interface SeedState {
  connected: boolean;
}

async function readState(db: Database): Promise<SeedState | undefined> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, SEED_KEY)).limit(1);
  return row?.value as SeedState | undefined;
}

async function writeState(db: Database, state: SeedState): Promise<void> {
  await db
    .insert(appSettings)
    .values({ key: SEED_KEY, value: state })
    .onConflictDoUpdate({ target: appSettings.key, set: { value: state, updatedAt: new Date() } });
}

/**
 * On a database without any account, creates the demo admin and manager and records that the
 * demo connection is still to be made. A database that already has accounts is left alone.
 * Returns true when it created the accounts.
 */
export async function seedDemoUsers(db: Database): Promise<boolean> {
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  if ((count?.n ?? 0) > 0) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const created = await db.transaction(async (tx) => {
    // Another instance may be seeding at the same moment; the e-mail's unique key decides.
    const [again] = await tx.select({ n: sql<number>`count(*)::int` }).from(users);
    if ((again?.n ?? 0) > 0) return false;
    await createUser(tx, { email: DEMO_ADMIN_EMAIL, name: 'Demo Admin', role: 'admin', passwordHash });
    await createUser(tx, { email: DEMO_MANAGER_EMAIL, name: 'Demo Manager', role: 'manager', passwordHash });
    await writeState(tx, { connected: false });
    return true;
  });
  if (created) {
    // Printed, not logged: the logger would redact the (public, demo-only) password.
    console.log(
      [
        '',
        '  Demo logins (sandbox mode):',
        `    admin    ${DEMO_ADMIN_EMAIL}    password ${DEMO_PASSWORD}`,
        `    manager  ${DEMO_MANAGER_EMAIL}  password ${DEMO_PASSWORD}`,
        '',
      ].join('\n'),
    );
  }
  return created;
}

export interface DemoConnectionDeps {
  directory: () => Promise<{ approvals: { approvalId: string; deviceIds: string[] }[]; systems: { deviceId: string; name: string }[] }>;
  generate: ApiKeyGenerator;
  encryptionKey: Buffer;
}

/**
 * Connects the sandbox's first approval and gives its systems to the demo manager, once, if the
 * demo accounts were seeded. Safe to call again (after a failure, on the next start).
 */
export async function seedDemoConnection(db: Database, deps: DemoConnectionDeps): Promise<'connected' | 'not-needed'> {
  const state = await readState(db);
  if (!state || state.connected) return 'not-needed';
  const directory = await deps.directory();
  const first = directory.approvals[0];
  if (!first) throw new Error('the sandbox lists no approvals');
  const names = new Map(directory.systems.map((s) => [s.deviceId, s.name]));
  const admin = await findUserByEmail(db, DEMO_ADMIN_EMAIL);
  const systems = await connectApproval(db, first.approvalId, { generate: deps.generate, encryptionKey: deps.encryptionKey, names, createdBy: admin?.id });
  const manager = await findUserByEmail(db, DEMO_MANAGER_EMAIL);
  if (manager?.role === 'manager') await addManagerSystems(db, manager.id, systems.map((s) => s.deviceId));
  await writeState(db, { connected: true });
  log.info('demo systems connected', { systems: systems.map((s) => s.name) });
  return 'connected';
}
