import 'server-only';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { sandboxBaseUrl } from '@/lib/service';
import { getWebhookSecret } from './webhook-secret';

const ATTEMPTS = 30;
const DELAY_MS = 2_000;

/** The portal's own webhook receiver. */
export function webhookUrl(): string {
  return `${env.PORTAL_URL.replace(/\/+$/, '')}/api/webhooks`;
}

/**
 * Sandbox mode: subscribes this portal's /api/webhooks with the mounted sandbox, with the generated
 * secret, so outcomes arrive out of the box. Registration is idempotent per url+secret upstream,
 * so it runs at every start. Over HTTP through this very server (the default fetch) it first waits
 * for the server to listen; in-process (`mountedSandboxFetch`, what startup passes) it tries at once,
 * so outcomes of the first bookings after a start are delivered, and retries after a failure.
 */
export async function registerSandboxWebhook(fetchFn: typeof fetch = fetch): Promise<boolean> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    if (attempt > 1 || fetchFn === fetch) await new Promise((resolve) => setTimeout(resolve, DELAY_MS).unref());
    try {
      const secret = await getWebhookSecret();
      const response = await fetchFn(`${sandboxBaseUrl()}/_sandbox/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: webhookUrl(), secret }),
        signal: AbortSignal.timeout(10_000),
      });
      await response.body?.cancel().catch(() => undefined);
      if (response.ok) {
        log.info('webhook registered with the sandbox', { url: webhookUrl() });
        return true;
      }
      if (attempt === ATTEMPTS) log.warn('webhook registration refused by the sandbox', { status: response.status });
    } catch (error) {
      if (attempt === ATTEMPTS) log.warn('webhook registration failed; will retry at the next start', { error });
    }
  }
  return false;
}
