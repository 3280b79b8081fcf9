import { randomBytes } from 'node:crypto';
import { openSandboxSql, type OpenedSql } from './sql';

/**
 * Test databases for the sandbox's own tests (it imports nothing from the portal): an in-memory
 * PGlite always, and a fresh PostgreSQL database per file when TEST_DATABASE_URL is set.
 */
export type SandboxDbTarget = 'pglite' | 'postgres';

// eslint-disable-next-line no-restricted-properties -- test tooling reads its own variable
const testDatabaseUrl = (): string | undefined => process.env.TEST_DATABASE_URL || undefined;

export function sandboxDbTargets(): SandboxDbTarget[] {
  return testDatabaseUrl() ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestSql extends OpenedSql {
  /** Opens a second connection pool to the same database (a restarted process), where possible. */
  reopen(): Promise<OpenedSql>;
}

export async function openTestSql(target: SandboxDbTarget): Promise<TestSql> {
  if (target === 'pglite') {
    const opened = await openSandboxSql({ dataDir: 'memory://' });
    // An in-memory PGlite cannot be opened twice; a "restart" reuses the handle.
    return { ...opened, reopen: () => Promise.resolve({ ...opened, close: () => Promise.resolve() }) };
  }
  const adminUrl = testDatabaseUrl()!;
  const { default: pg } = await import('pg');
  const name = `sandbox_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const opened = await openSandboxSql({ url: url.toString() });
  return {
    ...opened,
    reopen: () => openSandboxSql({ url: url.toString() }),
    async close() {
      await opened.close();
      const drop = new pg.Client({ connectionString: adminUrl });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await drop.end();
    },
  };
}

import type { Sandbox, SandboxFixtures } from './sandbox';

/** Drives a sandbox in-process over its fetch handler, as an HTTP client would. */
export class SandboxClient {
  private fixturesCache?: SandboxFixtures;
  private tokenCache?: string;
  private keys = new Map<number, string>();

  constructor(
    readonly sandbox: Sandbox,
    readonly base = 'http://sandbox.test',
  ) {}

  call(method: string, path: string, init: { headers?: Record<string, string>; json?: unknown; body?: string } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    return this.sandbox.fetch(new Request(`${this.base}${path}`, { method, headers, body }));
  }

  async fixtures(): Promise<SandboxFixtures> {
    this.fixturesCache ??= (await (await this.call('GET', '/_sandbox/fixtures')).json()) as SandboxFixtures;
    return this.fixturesCache;
  }

  forget(): void {
    this.fixturesCache = undefined;
    this.tokenCache = undefined;
    this.keys.clear();
  }

  async requestToken(form: Record<string, string>): Promise<Response> {
    const f = await this.fixtures();
    return this.call('POST', f.tokenPath, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  }

  async token(): Promise<string> {
    if (!this.tokenCache) {
      const f = await this.fixtures();
      const response = await this.requestToken({ grant_type: 'client_credentials', client_id: f.clientId, client_secret: f.clientSecret, scope: f.scope });
      if (response.status !== 200) throw new Error(`token: ${response.status} ${await response.text()}`);
      this.tokenCache = ((await response.json()) as { access_token: string }).access_token;
    }
    return this.tokenCache;
  }

  async apiKey(approvalIndex = 0): Promise<string> {
    let key = this.keys.get(approvalIndex);
    if (!key) {
      const f = await this.fixtures();
      const response = await this.call('GET', `/v1/apikey/generate/${f.approvals[approvalIndex]!.approvalId}`, { headers: { authorization: `Bearer ${await this.token()}` } });
      if (response.status !== 200) throw new Error(`apikey: ${response.status} ${await response.text()}`);
      key = ((await response.json()) as { apiKey: string }).apiKey;
      this.keys.set(approvalIndex, key);
    }
    return key;
  }

  /** A /v1 call with a valid token and the key of approval `approvalIndex`. */
  async v1(method: string, path: string, init: { json?: unknown; approval?: number } = {}): Promise<Response> {
    return this.call(method, path, {
      headers: { authorization: `Bearer ${await this.token()}`, 'x-api-key': await this.apiKey(init.approval ?? 0) },
      json: init.json,
    });
  }
}
