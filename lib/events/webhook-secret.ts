import 'server-only';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { appSettings } from '@/lib/db/schema';
import { env } from '@/lib/env';
import { singletonPromise } from '@/lib/singleton';

const SETTING_KEY = 'sandbox_webhook_secret';

/**
 * The secret that signs incoming webhooks: WEBHOOK_SECRET with a real service; in sandbox mode one
 * generated at first start and kept in the database (the portal registers it with the sandbox).
 */
export function getWebhookSecret(): Promise<string> {
  if (env.serviceMode === 'remote' && env.WEBHOOK_SECRET) return Promise.resolve(env.WEBHOOK_SECRET);
  return singletonPromise('webhook-secret', async () => {
    const { db } = await getDb();
    const candidate = `whsec_${randomBytes(32).toString('base64')}`;
    // Stored as a JSON string; the first instance to start wins, the others read its secret.
    await db.insert(appSettings).values({ key: SETTING_KEY, value: candidate }).onConflictDoNothing({ target: appSettings.key });
    const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, SETTING_KEY));
    const secret = row?.value;
    if (typeof secret !== 'string' || !secret) throw new Error('webhook secret missing after insert');
    return secret;
  });
}
