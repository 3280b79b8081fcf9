import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { handleApiError } from '@/lib/errors/api-error';
import { DEMO_MANAGER_EMAIL, seedDemoConnection, seedDemoUsers } from '@/lib/auth/demo-seed';
import { listAccessibleSystemsIn } from '@/lib/auth/access';
import { findUserByEmail } from '@/lib/auth/users';
import { describeWithDb } from '@/tests/db';
import { createServiceClient, type ServiceClient } from '@/lib/service';
import { createSandbox, type Sandbox, type SandboxFixtures } from '@/sandbox';
import { connectApproval } from './connect';
import { readSystemApiKey } from './store';
import { apiKeyGeneratorFor } from './api-key-generator';

const encryptionKey = randomBytes(32);

// The real sandbox and the real service client, meeting over the sandbox's fetch handler.
describeWithDb('connecting the sandbox through the service client', (ctx) => {
  let sandbox: Sandbox;
  let fixtures: SandboxFixtures;
  let client: ServiceClient;

  beforeAll(async () => {
    sandbox = createSandbox({ sql: ctx().handle.sql, preset: 'demo', seed: 1, workers: false });
    await sandbox.start();
    fixtures = await sandbox.fixtures();
    const base = 'http://sandbox.test';
    client = createServiceClient({
      baseUrl: base,
      tokenUrl: `${base}${fixtures.tokenPath}`,
      clientId: fixtures.clientId,
      clientSecret: fixtures.clientSecret,
      scope: fixtures.scope,
      fetch: (request) => sandbox.fetch(request),
    });
  }, 60_000);
  afterAll(async () => {
    await sandbox.stop();
  });

  it('seeds the demo accounts on an empty database, then connects the first approval for the manager, once', async () => {
    const { db } = ctx().handle;
    expect(await seedDemoUsers(db)).toBe(true);
    expect(await seedDemoUsers(db)).toBe(false);
    const deps = { directory: () => sandbox.fixtures(), generate: apiKeyGeneratorFor(client), encryptionKey };
    expect(await seedDemoConnection(db, deps)).toBe('connected');
    expect(await seedDemoConnection(db, deps)).toBe('not-needed');

    const first = fixtures.approvals[0];
    const manager = await findUserByEmail(db, DEMO_MANAGER_EMAIL);
    if (!first || !manager) throw new Error('fixtures or manager missing');
    const visible = await listAccessibleSystemsIn(db, manager);
    expect(visible.map((s) => s.deviceId).sort()).toEqual([...first.deviceIds].sort());
    // Names come from the fixtures, not the default.
    const names = new Map(fixtures.systems.map((s) => [s.deviceId, s.name]));
    for (const s of visible) expect(s.name).toBe(names.get(s.deviceId));

    // The stored key works upstream for those systems.
    const deviceId = first.deviceIds[0] ?? '';
    const apiKey = await readSystemApiKey(db, deviceId, encryptionKey);
    expect(apiKey).toBeTruthy();
    const resources = await client.resources.list(apiKey ?? '', deviceId).toArray({ limit: 1000 });
    expect(resources.length).toBeGreaterThan(0);
  });

  it('answers an approval id the service does not know with a 404 saying so, through the one error map', async () => {
    const unknown = randomUUID();
    const error = await connectApproval(ctx().handle.db, unknown, { generate: apiKeyGeneratorFor(client), encryptionKey }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'not_found', reason: 'noSuchApproval' });
    const response = await handleApiError(error);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: 'not_found', reason: 'noSuchApproval', message: 'No approval with this id exists at the service. Check the id with the system owner; nothing was connected.' },
    });
  });

  it('answers an approval id that is not a GUID with a 400 sentence, sending nothing', async () => {
    const sent: string[] = [];
    const generate = apiKeyGeneratorFor(client);
    const error = await connectApproval(ctx().handle.db, 'not-a-uuid', {
      generate: (id) => {
        sent.push(id);
        return generate(id);
      },
      encryptionKey,
    }).catch((e: unknown) => e);
    const response = await handleApiError(error);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/^The approval id must be an approval id as the system owner gave it/);
    expect(sent).toEqual([]);
  });
});
