import 'server-only';
import { getDb } from '@/lib/db';
import { getSecrets } from '@/lib/secrets';
// eslint-disable-next-line import-x/no-restricted-paths -- live wiring, moved to the composition root (lib/wiring.ts) in the next commit
import { recordConnectAudit } from '@/lib/admin/audit';
// eslint-disable-next-line import-x/no-restricted-paths -- live wiring, moved to the composition root (lib/wiring.ts) in the next commit
import type { Actor } from '@/lib/admin/audit';
import { connectApproval } from './connect';
import type { SystemPublic } from './schemas';
import { readSystemApiKey } from './store';
import { generateApiKeyUpstream, knownSystemNames } from './upstream';

export type { SystemPublic } from './schemas';

/**
 * The decrypted API key of a system, for calls to the upstream service. Server-only; the result
 * must go nowhere but the `x-api-key` header. Undefined when the system is not connected.
 */
export async function getSystemApiKey(deviceId: string): Promise<string | undefined> {
  const [{ db }, { encryptionKey }] = await Promise.all([getDb(), getSecrets()]);
  return readSystemApiKey(db, deviceId, encryptionKey);
}

/** The admin's "connect systems" action, wired to the configured upstream, recorded in the admin audit log. */
export async function connectSystemsByApproval(approvalId: unknown, admin: Actor): Promise<SystemPublic[]> {
  const [{ db }, { encryptionKey }, names] = await Promise.all([getDb(), getSecrets(), knownSystemNames()]);
  return connectApproval(db, approvalId, {
    generate: generateApiKeyUpstream,
    encryptionKey,
    names,
    createdBy: admin.id ?? undefined,
    afterStore: (tx, systems) => recordConnectAudit(tx, admin, systems),
  });
}
