import 'server-only';
import { z } from 'zod';
import { env, type Env } from '@/lib/env';
import { log } from '@/lib/log';
import { createServiceClient, type FetchLike, type ServiceClient } from './client';
import { ServiceContractError, ServiceUnavailableError } from './errors';
import { withTimeout } from './policies';
import { singletonPromise } from '@/lib/singleton';

/** The part of the sandbox's `/_sandbox/fixtures` the client needs. */
const SandboxCredentialsSchema = z.object({
  tokenPath: z.string().startsWith('/'),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  scope: z.string().min(1),
});

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
 * reads the credentials over HTTP from the mounted sandbox's fixtures, as a real integrator would
 * read them from the service's customer portal: the two never share code or memory.
 */
export async function createPortalServiceClient(settings: PortalSettings, fetchFn: FetchLike = (r) => fetch(r)): Promise<ServiceClient> {
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
  const base = sandboxBaseUrl(settings);
  const fixtures = await readSandboxCredentials(base, fetchFn, settings.SERVICE_TIMEOUT_MS);
  return createServiceClient({
    ...common,
    baseUrl: base,
    tokenUrl: `${base}${fixtures.tokenPath}`,
    clientId: fixtures.clientId,
    clientSecret: fixtures.clientSecret,
    scope: fixtures.scope,
  });
}

async function readSandboxCredentials(base: string, fetchFn: FetchLike, timeoutMs: number) {
  const operation = 'GET {sandbox}/_sandbox/fixtures';
  const text = await withTimeout(timeoutMs, operation, async (signal) => {
    let response: Response;
    try {
      response = await fetchFn(new Request(`${base}/_sandbox/fixtures`, { headers: { accept: 'application/json' }, signal }));
    } catch (error) {
      throw new ServiceUnavailableError('the embedded sandbox could not be reached', { operation, reason: 'network', retryable: true }, { cause: error });
    }
    if (!response.ok) {
      throw new ServiceUnavailableError(`the embedded sandbox answered ${response.status}`, {
        operation,
        status: response.status,
        reason: 'status',
        retryable: true,
      });
    }
    return response.text();
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ServiceContractError([{ path: '', message: 'the body is not JSON' }], { operation });
  }
  const parsed = SandboxCredentialsSchema.safeParse(json);
  if (!parsed.success) {
    throw new ServiceContractError(
      parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
      { operation },
    );
  }
  return parsed.data;
}

/** The portal's one client per process. A failed start (sandbox not up yet) is not kept: the next caller tries again. */
export function getServiceClient(): Promise<ServiceClient> {
  return singletonPromise('service-client', () =>
    createPortalServiceClient(env).catch((error: unknown) => {
      log.warn('could not configure the reservation service client', {
        error: error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error',
      });
      throw error;
    }),
  );
}
