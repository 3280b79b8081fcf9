import 'server-only';
import { env } from '@/lib/env';
import { redactSmtpUrl } from './worker';

/** How residents' e-mail leaves this portal: over SMTP (to the redacted server shown) or kept in the outbox. */
export function mailDelivery(): { mode: 'smtp'; server: string } | { mode: 'capture' } {
  return env.SMTP_URL ? { mode: 'smtp', server: redactSmtpUrl(env.SMTP_URL) } : { mode: 'capture' };
}
