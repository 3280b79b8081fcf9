import 'server-only';
import { z } from 'zod';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { sandboxBaseUrl } from '@/lib/service/client-from-settings';

// The mounted sandbox's public directory: which approvals and systems it has, and their names.

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
