import type { Database } from '@/lib/db';
import { refreshSystem } from '@/lib/mirror/refresh';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import type { SandboxOptions } from '@/sandbox';
import { startHttpReceiver } from './http-receiver';
import { startTestSandbox, type TestSandbox } from './sandbox-service';

export interface ConnectedSandbox extends TestSandbox {
  /** The first approval's first system, mirrored into `db`. */
  deviceId: string;
  apiKey: string;
  /** The sandbox's webhook subscription to `webhook`, when one was given. */
  subscriptionId?: string;
  stop(): Promise<void>;
}

/**
 * Tests only: an in-process sandbox with its first system connected as the portal connects one (an
 * API key from the approval, the mirror refreshed into `db`) and, given `webhook`, a real HTTP
 * receiver subscribed to its outcomes.
 */
export async function startConnectedSandbox(
  db: Database,
  options: SandboxOptions,
  extras: { webhook?: { secret: string; handle: (request: Request) => Response | Promise<Response> }; observe?: (request: Request) => void } = {},
): Promise<ConnectedSandbox> {
  const started = await startTestSandbox(options, extras.observe);
  const approval = started.fixtures.approvals[0];
  if (!approval?.deviceIds[0]) throw new Error('the sandbox preset has no approval with a system');
  const deviceId = approval.deviceIds[0];
  const { apiKey } = await started.client.apiKeys.generate(approval.approvalId);
  await refreshSystem(db, deviceId, serviceMirrorSource(started.client, apiKey));
  const receiver = extras.webhook ? await startHttpReceiver(extras.webhook.handle) : undefined;
  let subscriptionId: string | undefined;
  if (receiver && extras.webhook) {
    const response = await started.sandbox.fetch(
      new Request('http://sandbox.test/_sandbox/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, secret: extras.webhook.secret }),
      }),
    );
    subscriptionId = ((await response.json()) as { id: string }).id;
  }
  return {
    ...started,
    deviceId,
    apiKey,
    subscriptionId,
    stop: async () => {
      await started.sandbox.stop();
      await receiver?.close();
    },
  };
}
