import 'server-only';
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { singletonPromise } from '@/lib/singleton';

/** The portal's own secrets: the session signing secret and the key that encrypts API keys. */
export interface PortalSecrets {
  authSecret: string;
  encryptionKey: Buffer;
}

const storedSchema = z.object({
  authSecret: z.string().min(32),
  encryptionKey: z.string().refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64'),
});

export function secretsFile(dataDir = env.DATA_DIR): string {
  return path.resolve(dataDir, 'secrets.json');
}

/**
 * Reads the development secrets under DATA_DIR, creating them once (mode 0600). When several
 * processes start together, the first writer wins and the others read its file.
 */
export async function loadOrCreateDevSecrets(file: string): Promise<{ authSecret: string; encryptionKey: string }> {
  try {
    return storedSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${file} is unreadable or malformed; delete it to generate new development secrets`);
  }
  const fresh = {
    authSecret: randomBytes(32).toString('base64url'),
    encryptionKey: randomBytes(32).toString('base64'),
  };
  await mkdir(path.dirname(file), { recursive: true });
  // Written completely to a private temporary file, then linked into place: link() fails if the
  // file exists, so readers never see a half-written file and the first writer wins.
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, JSON.stringify(fresh, null, 2), { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, file);
    log.info('generated development secrets', { file });
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return storedSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

/** Settings win; in sandbox mode the missing ones come from `${DATA_DIR}/secrets.json`. */
export function getSecrets(): Promise<PortalSecrets> {
  return singletonPromise('portal-secrets', async () => {
    let authSecret = env.AUTH_SECRET;
    let encryptionKey = env.ENCRYPTION_KEY;
    if (authSecret === undefined || encryptionKey === undefined) {
      if (env.serviceMode !== 'sandbox') throw new Error('AUTH_SECRET and ENCRYPTION_KEY are required with a real service');
      const dev = await loadOrCreateDevSecrets(secretsFile());
      authSecret ??= dev.authSecret;
      encryptionKey ??= dev.encryptionKey;
    }
    return { authSecret, encryptionKey: Buffer.from(encryptionKey, 'base64') };
  });
}
