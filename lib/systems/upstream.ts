import 'server-only';
import { z } from 'zod';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { getServiceClient, isServiceError, sandboxBaseUrl, type ServiceClient } from '@/lib/service';
import type { ApiKeyGenerator } from './connect';

/** apikey/generate through a service client. */
export const apiKeyGeneratorFor = (client: ServiceClient): ApiKeyGenerator => async (approvalId) => {
  try {
    return await client.apiKeys.generate(approvalId);
  } catch (error) {
    // An unknown, malformed or refused approval is the admin's input, not a portal fault: say so plainly.
    if (
      isServiceError(error) &&
      (error.kind === 'not-found' || error.kind === 'validation' || (error.kind === 'auth' && error.credential === 'apiKey'))
    ) {
      throw new ApiError('not_found', msg('errors.noSuchApproval'));
    }
    throw error;
  }
};

/** apikey/generate through the portal's configured service client. */
export const generateApiKeyUpstream: ApiKeyGenerator = async (approvalId) => apiKeyGeneratorFor(await getServiceClient())(approvalId);

const fixturesSchema = z.object({
  approvals: z.array(z.object({ approvalId: z.string(), deviceIds: z.array(z.string()) })),
  systems: z.array(z.object({ deviceId: z.string(), name: z.string() })),
});
export type SandboxDirectory = z.infer<typeof fixturesSchema>;

const FIXTURES_TIMEOUT_MS = 5_000;

/** The mounted sandbox's public fixtures, over HTTP (sandbox mode only). */
export async function readSandboxDirectory(): Promise<SandboxDirectory> {
  const response = await fetch(`${sandboxBaseUrl()}/_sandbox/fixtures`, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(FIXTURES_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`the sandbox's fixtures answered ${response.status}`);
  return fixturesSchema.parse(await response.json());
}

/**
 * Names of systems: the upstream has no endpoint for them, so in sandbox mode they come from the
 * sandbox's fixtures; with a real service the admin names systems after connecting them.
 */
export async function knownSystemNames(): Promise<ReadonlyMap<string, string>> {
  if (env.serviceMode !== 'sandbox') return new Map();
  try {
    const directory = await readSandboxDirectory();
    return new Map(directory.systems.map((s) => [s.deviceId, s.name]));
  } catch (error) {
    log.warn('sandbox system names unavailable; using default names', { error });
    return new Map();
  }
}
