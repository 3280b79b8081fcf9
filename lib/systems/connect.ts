import 'server-only';
import { z } from 'zod';
import type { Database } from '@/lib/db';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { log } from '@/lib/log';
import { approvalIdSchema, type SystemPublic } from './schemas';
import { storeConnection } from './store';

/** Exchanges an approval id for an API key upstream (apikey/generate). */
export type ApiKeyGenerator = (approvalId: string) => Promise<{ apiKey: string; deviceIds: string[] }>;

// GUIDs, not necessarily RFC 9562 UUIDs: the service is a .NET one.
const generatedSchema = z.object({ apiKey: z.string().min(1), deviceIds: z.array(z.guid().transform((d) => d.toLowerCase())) });

export interface ConnectDeps {
  generate: ApiKeyGenerator;
  encryptionKey: Buffer;
  /** Known names of systems (sandbox fixtures); others get "System 1a2b3c4d". */
  names?: ReadonlyMap<string, string>;
  createdBy?: string;
  /** Runs in the transaction that stores the systems (the admin audit entry). */
  afterStore?: (tx: Database, systems: SystemPublic[]) => Promise<void>;
}

/**
 * Connects the systems an approval covers: calls the upstream once, stores the key encrypted,
 * records the systems. Bad input is refused before the upstream is called.
 */
export async function connectApproval(db: Database, approvalIdInput: unknown, deps: ConnectDeps): Promise<SystemPublic[]> {
  const approval = approvalIdSchema.safeParse(approvalIdInput);
  if (!approval.success) {
    throw new ApiError('bad_request', msg('errors.approvalIdInvalid'));
  }
  const generated = generatedSchema.safeParse(await deps.generate(approval.data));
  if (!generated.success) throw new ApiError('bad_gateway', msg('errors.approvalUnexpected'));
  if (generated.data.deviceIds.length === 0) {
    throw new ApiError('unprocessable_entity', msg('errors.approvalNoSystems'));
  }
  const result = await storeConnection(db, {
    approvalId: approval.data,
    apiKey: generated.data.apiKey,
    deviceIds: generated.data.deviceIds,
    names: deps.names,
    createdBy: deps.createdBy,
    encryptionKey: deps.encryptionKey,
    afterStore: deps.afterStore,
  });
  log.info('systems connected', { connectionId: result.connectionId, deviceIds: generated.data.deviceIds });
  return result.systems;
}
