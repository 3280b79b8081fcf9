import 'server-only';
import { z } from 'zod';
import { env, type Env } from '@/lib/env';
import { log } from '@/lib/log';
import { createServiceClient, type FetchLike, type ServiceClient } from './client';
import { ServiceContractError, ServiceUnavailableError } from './errors';
import { withTimeout } from './policies';
import { singletonPromise } from '@/lib/singleton';

/** What the portal's client needs of the mounted sandbox's credentials (its fixtures). */
const SandboxCredentialsSchema = z.object({
  tokenPath: z.string().startsWith('/'),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  scope: z.string().min(1),
});
export type SandboxCredentials = z.infer<typeof SandboxCredentialsSchema>;

/**
 * Where sandbox mode's credentials come from: the mounted sandbox itself, in-process
 * (lib/sandbox-mount.ts) — its public fixtures route answers only a signed-in admin and never
 * with the secret (issue 47, decision 037).
 */
export type SandboxCredentialsReader = () => Promise<unknown>;

type PortalSettings = Pick<
  Env,
  | 'serviceMode'
  | 'PORTAL_URL'
  | 'SERVICE_BASE_URL'
  | 'SERVICE_TOKEN_URL'
  | 'SERVICE_CLIENT_ID'
  | 'SERVICE_CLIENT_SECRET'
  | 'SERVICE_SCOPE'
  | 'SERVICE_TIMEOUT_MS'
  | 'TOKEN_REFRESH_MARGIN_S'
>;

/** Base URL of the sandbox mounted in the portal. */
export function sandboxBaseUrl(settings: Pick<Env, 'PORTAL_URL'> = env): string {
  return `${settings.PORTAL_URL.replace(/\/+$/, '')}/sandbox`;
}

/**
 * Builds the portal's client from settings. Remote mode uses the SERVICE_* variables; sandbox mode
 * takes the credentials from the mounted sandbox (`sandboxCredentials`, in-process, as an
 * integrator copies them from the service's customer portal) and then calls it over HTTP at
 * PORTAL_URL/sandbox, exactly as it would call the real service (decision 007).
 */
export async function createPortalServiceClient(
  settings: PortalSettings,
  sandboxCredentials?: SandboxCredentialsReader,
  fetchFn: FetchLike = (r) => fetch(r),
): Promise<ServiceClient> {
  const common = { fetch: fetchFn, timeoutMs: settings.SERVICE_TIMEOUT_MS, refreshMarginSeconds: settings.TOKEN_REFRESH_MARGIN_S };
  if (settings.serviceMode === 'remote') {
    const { SERVICE_BASE_URL, SERVICE_TOKEN_URL, SERVICE_CLIENT_ID, SERVICE_CLIENT_SECRET, SERVICE_SCOPE } = settings;
    if (!SERVICE_BASE_URL || !SERVICE_TOKEN_URL || !SERVICE_CLIENT_ID || !SERVICE_CLIENT_SECRET || !SERVICE_SCOPE) {
      throw new Error('remote service mode needs every SERVICE_* variable'); // lib/env.ts enforces this already
    }
    return createServiceClient({
      ...common,
      baseUrl: SERVICE_BASE_URL,
      tokenUrl: SERVICE_TOKEN_URL,
      clientId: SERVICE_CLIENT_ID,
      clientSecret: SERVICE_CLIENT_SECRET,
      scope: SERVICE_SCOPE,
    });
  }
  if (!sandboxCredentials) throw new Error('sandbox mode needs the mounted sandbox’s credentials');
  const base = sandboxBaseUrl(settings);
  const credentials = await readSandboxCredentials(sandboxCredentials, settings.SERVICE_TIMEOUT_MS);
  return createServiceClient({
    ...common,
    baseUrl: base,
    tokenUrl: `${base}${credentials.tokenPath}`,
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
    scope: credentials.scope,
  });
}

async function readSandboxCredentials(read: SandboxCredentialsReader, timeoutMs: number): Promise<SandboxCredentials> {
  const operation = 'sandbox credentials';
  const value = await withTimeout(timeoutMs, operation, async () => {
    try {
      return await read();
    } catch (error) {
      throw new ServiceUnavailableError('the embedded sandbox gave no credentials', { operation, reason: 'network', retryable: true }, { cause: error });
    }
  });
  const parsed = SandboxCredentialsSchema.safeParse(value);
  if (!parsed.success) {
    throw new ServiceContractError(
      parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
      { operation },
    );
  }
  return parsed.data;
}

/**
 * The portal's one client per process, made with `sandboxCredentials` in sandbox mode (the
 * composition root passes the mounted sandbox's). A failed start (sandbox not up yet) is not kept:
 * the next caller tries again.
 */
export function getServiceClient(sandboxCredentials: SandboxCredentialsReader): Promise<ServiceClient> {
  return singletonPromise('service-client', () =>
    createPortalServiceClient(env, sandboxCredentials).catch((error: unknown) => {
      log.warn('could not configure the reservation service client', {
        error: error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error',
      });
      throw error;
    }),
  );
}
