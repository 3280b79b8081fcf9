import { describe, expect, it } from 'vitest';
import { defaultPortalUrl, EnvError, parseEnv, startupProblem } from './env';

describe('parseEnv', () => {
  it('runs with no configuration in sandbox mode on PGlite', () => {
    const env = parseEnv({});
    expect(env.serviceMode).toBe('sandbox');
    expect(env.databaseKind).toBe('pglite');
    expect(env.DATA_DIR).toBe('.data');
    expect(env.SERVICE_TIMEOUT_MS).toBe(10_000);
  });

  it('rejects a bad DATABASE_URL naming the variable', () => {
    expect(() => parseEnv({ DATABASE_URL: 'mysql://localhost/db' })).toThrowError(/DATABASE_URL/);
  });

  it('rejects a non-numeric timeout naming the variable', () => {
    try {
      parseEnv({ SERVICE_TIMEOUT_MS: 'soon' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      expect((error as EnvError).problems.map((p) => p.variable)).toEqual(['SERVICE_TIMEOUT_MS']);
    }
  });

  it('names every missing variable when the real service is configured half-way', () => {
    try {
      parseEnv({ SERVICE_BASE_URL: 'https://api.example.com' });
      expect.unreachable();
    } catch (error) {
      const names = (error as EnvError).problems.map((p) => p.variable);
      expect(names).toEqual(
        expect.arrayContaining(['SERVICE_TOKEN_URL', 'SERVICE_CLIENT_SECRET', 'WEBHOOK_SECRET']),
      );
      expect(names).not.toContain('SERVICE_BASE_URL');
    }
  });

  it('never echoes a secret value in its message', () => {
    const secret = 'super-secret-client-secret-value';
    try {
      parseEnv({ SERVICE_CLIENT_SECRET: secret, WEBHOOK_SECRET: 'not-whsec' });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).toContain('WEBHOOK_SECRET');
      expect(String(error)).not.toContain(secret);
      expect(String(error)).not.toContain('not-whsec');
    }
  });

  it('accepts a complete real-service configuration', () => {
    const env = parseEnv({
      SERVICE_BASE_URL: 'https://api.example.com',
      SERVICE_TOKEN_URL: 'https://login.example.com/t/oauth2/v2.0/token',
      SERVICE_CLIENT_ID: 'id',
      SERVICE_CLIENT_SECRET: 'secret',
      SERVICE_SCOPE: 'api://x/.default',
      WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      AUTH_SECRET: 'a'.repeat(32),
      ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
    });
    expect(env.serviceMode).toBe('remote');
    expect(env.databaseKind).toBe('postgres');
  });
});

describe('PORTAL_URL', () => {
  it('is the address this server listens on when unset: next dev -p N and next start -p N set PORT and the origin they print', () => {
    expect(parseEnv({ PORT: '3300' }).PORTAL_URL).toBe('http://localhost:3300');
    expect(parseEnv({ PORT: '3300', __NEXT_PRIVATE_ORIGIN: 'http://localhost:3300' }).PORTAL_URL).toBe('http://localhost:3300');
    // -H 127.0.0.1: Next's own origin names the address it is bound to.
    expect(parseEnv({ PORT: '3301', __NEXT_PRIVATE_ORIGIN: 'http://127.0.0.1:3301' }).PORTAL_URL).toBe('http://127.0.0.1:3301');
  });

  it('keeps an explicit PORTAL_URL, whatever the port', () => {
    expect(parseEnv({ PORT: '3300', __NEXT_PRIVATE_ORIGIN: 'http://localhost:3300', PORTAL_URL: 'https://portal.example.org' }).PORTAL_URL).toBe('https://portal.example.org');
  });

  it('falls back to port 3000 with nothing to go by, and ignores a PORT that is not a port', () => {
    expect(parseEnv({}).PORTAL_URL).toBe('http://localhost:3000');
    expect(defaultPortalUrl({ PORT: 'http' })).toBe('http://localhost:3000');
    expect(defaultPortalUrl({ PORT: '70000' })).toBe('http://localhost:3000');
    expect(defaultPortalUrl({ __NEXT_PRIVATE_ORIGIN: 'not a url', PORT: '3302' })).toBe('http://localhost:3302');
  });
});

describe('startupProblem', () => {
  it('stops a production start with no service configured, naming what to set', () => {
    const problem = startupProblem(parseEnv({ NODE_ENV: 'production' }));
    expect(problem).toMatch(/SERVICE_BASE_URL, SERVICE_TOKEN_URL, SERVICE_CLIENT_ID, SERVICE_CLIENT_SECRET, SERVICE_SCOPE, WEBHOOK_SECRET/);
    expect(problem).toMatch(/DEMO_MODE=1/);
  });

  it('lets development run the sandbox with no configuration, and production only when asked', () => {
    expect(startupProblem(parseEnv({}))).toBeNull();
    expect(parseEnv({}).demoMode).toBe(true);
    const demo = parseEnv({ NODE_ENV: 'production', DEMO_MODE: '1' });
    expect(startupProblem(demo)).toBeNull();
    expect(demo.demoMode).toBe(true);
    expect(parseEnv({ NODE_ENV: 'production' }).demoMode).toBe(false);
    expect(() => parseEnv({ DEMO_MODE: 'perhaps' })).toThrowError(/DEMO_MODE/);
  });
});

describe('e-mail settings', () => {
  it('defaults to capture mode (no SMTP_URL), a sender and a 300 s backoff cap', () => {
    const env = parseEnv({});
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.MAIL_FROM).toBe('Tvättportalen <no-reply@localhost>');
    expect(env.MAIL_RETRY_MAX_S).toBe(300);
  });

  it('accepts smtp:// and smtps:// URLs and named senders', () => {
    expect(parseEnv({ SMTP_URL: 'smtps://u:p@mail.example.com:465' }).SMTP_URL).toBe('smtps://u:p@mail.example.com:465');
    expect(parseEnv({ SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'no-reply@example.com' }).MAIL_FROM).toBe('no-reply@example.com');
  });

  it('stops the start on a malformed SMTP_URL, naming the variable and never echoing the password', () => {
    // The last: a password with an unencoded "/", which ends the URL's authority before its host.
    for (const bad of ['http://user:hunter2@mail.example.com', 'smtp//user:hunter2@host', 'mail.example.com:25', 'smtp://mailer:hunter2/x@127.0.0.1:2525']) {
      try {
        parseEnv({ SMTP_URL: bad });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(EnvError);
        expect((error as EnvError).problems.map((p) => p.variable)).toEqual(['SMTP_URL']);
        expect((error as EnvError).message).not.toContain('hunter2');
        expect((error as EnvError).message).toContain('%2F');
      }
    }
    expect(parseEnv({ SMTP_URL: 'smtp://mailer:hunter2%2Fx@127.0.0.1:2525' }).SMTP_URL).toBe('smtp://mailer:hunter2%2Fx@127.0.0.1:2525');
  });

  it('rejects a sender that is not an address', () => {
    expect(() => parseEnv({ MAIL_FROM: 'Portal' })).toThrowError(/MAIL_FROM/);
    expect(() => parseEnv({ MAIL_FROM: 'Portal <nope>' })).toThrowError(/MAIL_FROM/);
    expect(() => parseEnv({ MAIL_RETRY_MAX_S: '0' })).toThrowError(/MAIL_RETRY_MAX_S/);
  });

  it('has the refresh policy\'s defaults: 30 s freshness, hourly background refreshes, 2,400 requests an hour', () => {
    const env = parseEnv({});
    expect(env.MIRROR_FRESHNESS_S).toBe(30);
    expect(env.MIRROR_BACKGROUND_S).toBe(3600);
    expect(env.MIRROR_REQUEST_BUDGET_PER_HOUR).toBe(2400);
    // 0 turns each off.
    expect(parseEnv({ MIRROR_BACKGROUND_S: '0', MIRROR_REQUEST_BUDGET_PER_HOUR: '0' })).toMatchObject({ MIRROR_BACKGROUND_S: 0, MIRROR_REQUEST_BUDGET_PER_HOUR: 0 });
  });

  it('stops the start on a bad refresh policy, with a sentence naming the variable', () => {
    const problems = (source: Record<string, string>) => {
      try {
        parseEnv(source);
      } catch (error) {
        return (error as EnvError).problems;
      }
      return [];
    };
    expect(problems({ MIRROR_REQUEST_BUDGET_PER_HOUR: '-1' }).map((p) => p.variable)).toEqual(['MIRROR_REQUEST_BUDGET_PER_HOUR']);
    expect(problems({ MIRROR_REQUEST_BUDGET_PER_HOUR: 'lots' }).map((p) => p.variable)).toEqual(['MIRROR_REQUEST_BUDGET_PER_HOUR']);
    expect(problems({ MIRROR_BACKGROUND_S: '1.5' }).map((p) => p.variable)).toEqual(['MIRROR_BACKGROUND_S']);
    // A background cadence faster than the views' freshness makes no sense.
    const [slow] = problems({ MIRROR_FRESHNESS_S: '60', MIRROR_BACKGROUND_S: '30' });
    expect(slow?.variable).toBe('MIRROR_BACKGROUND_S');
    expect(slow?.message).toMatch(/at least MIRROR_FRESHNESS_S \(60\)/);
    expect(String(new EnvError(problems({ MIRROR_BACKGROUND_S: '-5' })))).toContain('MIRROR_BACKGROUND_S: must be 0 or more');
    // Issue 47: z.coerce read these as 16, 1000 and 3.
    for (const spelling of ['0x10', '1e3', '0b11']) {
      expect(String(new EnvError(problems({ MIRROR_FRESHNESS_S: spelling })))).toContain('MIRROR_FRESHNESS_S: must be a whole number written with the digits 0-9');
      expect(problems({ RETENTION_REQUEST_MONTHS: spelling }).map((p) => p.variable)).toEqual(['RETENTION_REQUEST_MONTHS']);
    }
  });
});
