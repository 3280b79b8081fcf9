import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOrCreateDevSecrets } from './secrets';

describe('development secrets under DATA_DIR', () => {
  const dirs: string[] = [];
  const freshDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'portal-secrets-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('generates them once, readable only by the owner, and returns the same values afterwards', async () => {
    const file = path.join(await freshDir(), 'nested', 'secrets.json');
    // Several processes starting together agree on one set.
    const [a, b, c] = await Promise.all([loadOrCreateDevSecrets(file), loadOrCreateDevSecrets(file), loadOrCreateDevSecrets(file)]);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(a.authSecret.length).toBeGreaterThanOrEqual(32);
    expect(Buffer.from(a.encryptionKey, 'base64')).toHaveLength(32);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await loadOrCreateDevSecrets(file)).toEqual(a);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(a);
  });

  it('refuses a malformed file instead of silently replacing the keys', async () => {
    const file = path.join(await freshDir(), 'secrets.json');
    await writeFile(file, '{"authSecret":"short"}');
    await expect(loadOrCreateDevSecrets(file)).rejects.toThrow(/malformed/);
  });
});
