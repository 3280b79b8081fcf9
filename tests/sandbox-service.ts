import { createSandbox, type Sandbox, type SandboxFixtures, type SandboxOptions } from '@/sandbox';
import { createServiceClient, type ServiceClient } from '@/lib/service/client';

export interface TestSandbox {
  sandbox: Sandbox;
  fixtures: SandboxFixtures;
  client: ServiceClient;
}

/**
 * Tests only: a started in-process sandbox (workers off; tests call drain()) and a service client
 * talking to it through its fetch handler. `observe` sees every request first (counting, logging).
 */
export async function startTestSandbox(
  options: SandboxOptions,
  observe?: (request: Request) => void,
): Promise<TestSandbox> {
  const sandbox = createSandbox({ workers: false, ...options });
  await sandbox.start();
  const fixtures = await sandbox.fixtures();
  const client = createServiceClient({
    baseUrl: 'http://sandbox.test',
    tokenUrl: `http://sandbox.test${fixtures.tokenPath}`,
    clientId: fixtures.clientId,
    clientSecret: fixtures.clientSecret,
    scope: fixtures.scope,
    fetch: (request) => {
      observe?.(request);
      return sandbox.fetch(request);
    },
  });
  return { sandbox, fixtures, client };
}
