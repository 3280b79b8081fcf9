import 'server-only';
import { z } from 'zod';
import { env } from '@/lib/env';
import { log } from '@/lib/log';

// The mounted sandbox's directory: which approvals and systems it has, and their names. Read
// in-process (lib/sandbox-mount.ts: mountedSandboxDirectory), not from its public fixtures route,
// which answers only a signed-in admin in demo mode (decision 037).

const directorySchema = z.object({
  approvals: z.array(z.object({ approvalId: z.string(), deviceIds: z.array(z.string()) })),
  systems: z.array(z.object({ deviceId: z.string(), name: z.string() })),
});
export type SandboxDirectory = z.infer<typeof directorySchema>;

export type SandboxDirectoryReader = () => Promise<SandboxDirectory>;

/**
 * Names of systems: the upstream has no endpoint for them, so in sandbox mode they come from the
 * sandbox's directory; with a real service the admin names systems after connecting them.
 */
export async function knownSystemNames(readDirectory: SandboxDirectoryReader): Promise<ReadonlyMap<string, string>> {
  if (env.serviceMode !== 'sandbox') return new Map();
  try {
    const directory = directorySchema.parse(await readDirectory());
    // A system the sandbox gives no name (the portfolio preset, as the service) gets the default one.
    return new Map(directory.systems.filter((s) => s.name.trim() !== '').map((s) => [s.deviceId, s.name]));
  } catch (error) {
    log.warn('sandbox system names unavailable; using default names', { error });
    return new Map();
  }
}
