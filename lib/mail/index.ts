import 'server-only';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { singleton } from '@/lib/singleton';
import { setMailKickTarget } from './kick';
import { MailWorker, redactSmtpUrl } from './worker';

export { enqueueOutcomeMail } from './outbox';

/** How residents' e-mail leaves this portal: over SMTP (to the redacted server shown) or kept in the outbox. */
export function mailDelivery(): { mode: 'smtp'; server: string } | { mode: 'capture' } {
  return env.SMTP_URL ? { mode: 'smtp', server: redactSmtpUrl(env.SMTP_URL) } : { mode: 'capture' };
}

/** Starts this process's mail worker (timers unref'd); a new outbox row kicks it. lib/shutdown.ts stops it by its singleton name. */
export async function startMailWorker(): Promise<void> {
  const { db } = await getDb();
  const worker = singleton('mail-worker', () => new MailWorker({ db, smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, retryMaxSeconds: env.MAIL_RETRY_MAX_S }));
  setMailKickTarget(worker.kick);
  worker.start();
  log.info('mail worker started', mailDelivery());
}
