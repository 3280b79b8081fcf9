import 'server-only';
import { randomBytes } from 'node:crypto';
import { getDb } from '@/lib/db';
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
    const { sql } = await getDb();
    const candidate = `whsec_${randomBytes(32).toString('base64')}`;
    await sql.query(
      `INSERT INTO app_settings (key, value) VALUES ($1, to_jsonb($2::text)) ON CONFLICT (key) DO NOTHING`,
      [SETTING_KEY, candidate],
    );
    const { rows } = await sql.query<{ value: string }>('SELECT value #>> \'{}\' AS value FROM app_settings WHERE key = $1', [
      SETTING_KEY,
    ]);
    const secret = rows[0]?.value;
    if (!secret) throw new Error('webhook secret missing after insert');
    return secret;
  });
}
