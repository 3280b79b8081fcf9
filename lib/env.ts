import 'server-only';
import { z } from 'zod';
import { FALLBACK_LOCALE, LOCALES, isLocale } from '@/lib/i18n/config';
import { parseTrustedProxies, type TrustedProxies } from '@/lib/http/client-address';
import { wholeNumberInput } from '@/lib/http/whole-number';

/**
 * Every setting of the portal, read and validated once. Nothing else reads `process.env`.
 * Empty strings count as unset, so `FOO=` in a .env file means "use the default".
 */

const optionalUrl = z.url().optional();
// Whole numbers in digits only: z.coerce read "0x10" as 16 and "1e3" as 1000 (issue 47). A minus
// sign is read, so that "-5" is told its range rather than its spelling.
const signed = (value: unknown) => (typeof value === 'string' && /^\s*-\d+\s*$/.test(value) ? -Number(value.trim().slice(1)) : wholeNumberInput(value));
const digits = () => z.preprocess(signed, z.number('must be a whole number written with the digits 0-9').int());
const positiveInt = (fallback: number) => digits().pipe(z.number().positive()).default(fallback);
const nonNegativeInt = (fallback: number) => digits().pipe(z.number().min(0, 'must be 0 or more')).default(fallback);

/**
 * The bounds of the retention periods (issue 37, decision 034), for the environment's values and an
 * admin's alike (lib/personal-data/retention-settings.ts): at least a month (a week for e-mail
 * bodies, which a resident may still ask about), at most ten years.
 */
export const RETENTION_BOUNDS = {
  months: { min: 1, max: 120 },
  days: { min: 7, max: 3650 },
} as const;
const retentionPeriod = (unit: keyof typeof RETENTION_BOUNDS) =>
  z
    .preprocess(
      wholeNumberInput,
      z
        .number(`must be a whole number of ${unit}, in digits`)
        .int(`must be a whole number of ${unit}`)
        .min(RETENTION_BOUNDS[unit].min, `must be at least ${RETENTION_BOUNDS[unit].min} ${unit}`)
        .max(RETENTION_BOUNDS[unit].max, `must be at most ${RETENTION_BOUNDS[unit].max} ${unit}`),
    )
    .optional();

const serviceVariables = [
  'SERVICE_BASE_URL',
  'SERVICE_TOKEN_URL',
  'SERVICE_CLIENT_ID',
  'SERVICE_CLIENT_SECRET',
  'SERVICE_SCOPE',
  'WEBHOOK_SECRET',
] as const;

/** Whether a value is an smtp:// or smtps:// URL with a host (never echoed: it may hold a password). */
export function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const ADDRESS = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+$/;

/** "someone@example.com" or "Some Name <someone@example.com>". */
export function isMailbox(value: string): boolean {
  const named = /^([^<>]*)<([^<>]+)>$/.exec(value.trim());
  return named ? ADDRESS.test(named[2]?.trim() ?? '') && !/[\r\n]/.test(named[1] ?? '') : ADDRESS.test(value.trim());
}

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    /**
     * Public URL of the portal; used for webhook registration, sign-in callbacks and, in sandbox
     * mode, to reach the mounted sandbox. Unset, the address this server listens on (see
     * defaultPortalUrl).
     */
    PORTAL_URL: z.url().default('http://localhost:3000'),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    /** The portal's language when neither the user's saved choice nor the browser names one it has. */
    PORTAL_DEFAULT_LOCALE: z
      .string()
      .refine(isLocale, `must be one of ${LOCALES.join(', ')}`)
      .default(FALLBACK_LOCALE),

    // Database
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    DATA_DIR: z.string().min(1).default('.data'),
    TEST_DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),

    // Upstream reservation service (all or none; none means the embedded sandbox)
    SERVICE_BASE_URL: optionalUrl,
    SERVICE_TOKEN_URL: optionalUrl,
    SERVICE_CLIENT_ID: z.string().min(1).optional(),
    SERVICE_CLIENT_SECRET: z.string().min(1).optional(),
    SERVICE_SCOPE: z.string().min(1).optional(),
    WEBHOOK_SECRET: z.string().startsWith('whsec_', 'must start with whsec_').optional(),
    SERVICE_TIMEOUT_MS: positiveInt(10_000),
    TOKEN_REFRESH_MARGIN_S: positiveInt(300),

    // Secrets of the portal itself (generated under DATA_DIR in sandbox mode when unset)
    AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    ENCRYPTION_KEY: z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded')
      .optional(),

    // Optional sign-in with Microsoft Entra ID (OpenID Connect)
    ENTRA_TENANT_ID: z.string().min(1).optional(),
    ENTRA_CLIENT_ID: z.string().min(1).optional(),
    ENTRA_CLIENT_SECRET: z.string().min(1).optional(),

    /** Proxies in front of the portal whose X-Forwarded-For is believed: a hop count or addresses/CIDRs (default none). */
    TRUSTED_PROXIES: z
      .string()
      .optional()
      .transform((v, ctx): TrustedProxies => {
        const parsed = parseTrustedProxies(v);
        if (typeof parsed === 'string') {
          ctx.addIssue({ code: 'custom', message: `${parsed} (give a hop count such as 1, or addresses and CIDRs separated by commas)` });
          return z.NEVER;
        }
        return parsed;
      }),

    /**
     * Runs the built-in sandbox with demo logins under `next start` (production). Without it a
     * production start with no service configured stops (see startupProblem); `npm run dev` needs it not.
     */
    DEMO_MODE: z.stringbool({ truthy: ['1', 'true', 'yes', 'on'], falsy: ['0', 'false', 'no', 'off'] }).default(false),

    /** Bearer token that GET /api/metrics asks for; unset, the endpoint answers 404. */
    METRICS_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
    /** Adds a Server-Timing header to API answers: where a request's time went (session, access, view, database). */
    SERVER_TIMING: z.stringbool({ truthy: ['1', 'true', 'yes', 'on'], falsy: ['0', 'false', 'no', 'off'] }).default(false),

    // E-mail to residents (lib/mail). Unset SMTP_URL: messages are rendered and kept in the outbox
    // ('captured', shown on the E-mails page), nothing leaves the machine.
    /** smtp://user:password@host:port or smtps://… (the password is never logged). */
    SMTP_URL: z
      .string()
      .optional()
      .superRefine((v, ctx) => {
        if (v !== undefined && !isSmtpUrl(v)) ctx.addIssue({ code: 'custom', message: 'must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:password@mail.example.com:587 (write a / @ : or # in the user or password as %2F %40 %3A %23)' });
      }),
    /** The sender of residents' e-mail: an address or "Name <address>". */
    MAIL_FROM: z
      .string()
      .refine(isMailbox, 'must be an e-mail address or "Name <address>"')
      .default('Tvättportalen <no-reply@localhost>'),
    /** The longest wait between two attempts at sending one e-mail (exponential backoff's cap). */
    MAIL_RETRY_MAX_S: positiveInt(300),

    // Behaviour
    /** A viewed system's copy is re-read from the service at most once per this many seconds (lib/mirror/policy.ts). */
    MIRROR_FRESHNESS_S: positiveInt(30),
    /** Systems nobody views are re-read once their copy is this old, and never-loaded ones are loaded (0: neither, first views load). */
    MIRROR_BACKGROUND_S: nonNegativeInt(3600),
    /**
     * Systems the background worker of one instance loads or re-reads at once (issue 49). Each
     * holds at most one of the 10 database connections at a time and sends four lists side by
     * side to the service: 4 leaves the pool to the requests and the service unhurried.
     */
    MIRROR_BACKGROUND_CONCURRENCY: positiveInt(4).refine((v) => v <= 32, 'must be at most 32 (each one holds a database connection while it writes)'),
    /** Upstream requests the refreshes of one system may make per hour, a token bucket across instances (0: no limit). */
    MIRROR_REQUEST_BUDGET_PER_HOUR: nonNegativeInt(2400).refine((v) => v <= 10_000_000, 'must be at most 10000000 (or 0 for no limit)'),
    /**
     * The most an admin may set a system's own request budget to, as the service's owner allows (0:
     * any); unset: MIRROR_REQUEST_BUDGET_PER_HOUR, so admins may only lower it.
     */
    MIRROR_REQUEST_BUDGET_MAX_PER_HOUR: digits().pipe(z.number().min(0, 'must be 0 or more').max(10_000_000, 'must be at most 10000000 (or 0 for any)')).optional(),
    /** Rooms, time schedules and user groups are re-read every this many re-reads of a system (1: every time); reservations always. */
    MIRROR_STRUCTURE_EVERY: positiveInt(10),
    RECONCILE_AFTER_S: positiveInt(120),
    // Retention of personal data (docs/personal-data.md#for-how-long): the portal's periods where an
    // admin has set none; unset: the defaults (13 months, 90 days, 13 months, 24 months).
    /** Booking requests' personal fields and notes, their events and deliveries, closures' names and targets. */
    RETENTION_REQUEST_MONTHS: retentionPeriod('months'),
    /** E-mails as sent (body, calendar attachment, subject, last delivery error). */
    RETENTION_EMAIL_BODY_DAYS: retentionPeriod('days'),
    /** Who an e-mail went to, and the facts it was written from. */
    RETENTION_EMAIL_META_MONTHS: retentionPeriod('months'),
    /** Names and e-mail addresses in the admin audit log. */
    RETENTION_AUDIT_MONTHS: retentionPeriod('months'),
    /** A booking whose answer was lost (timeout, reset, unreadable) is first checked this soon. */
    RECONCILE_UNKNOWN_AFTER_S: positiveInt(10),
  })
  .superRefine((v, ctx) => {
    const set = serviceVariables.filter((k) => v[k] !== undefined);
    if (set.length > 0 && set.length < serviceVariables.length) {
      for (const k of serviceVariables) {
        if (v[k] === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [k],
            message: `is required when ${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set (configure the real service completely, or none of it for the sandbox)`,
          });
        }
      }
    }
    if (set.length === serviceVariables.length) {
      for (const k of ['AUTH_SECRET', 'ENCRYPTION_KEY'] as const) {
        if (v[k] === undefined) {
          ctx.addIssue({ code: 'custom', path: [k], message: 'is required with a real service' });
        }
      }
    }
    if (v.MIRROR_BACKGROUND_S !== 0 && v.MIRROR_BACKGROUND_S < v.MIRROR_FRESHNESS_S) {
      ctx.addIssue({
        code: 'custom',
        path: ['MIRROR_BACKGROUND_S'],
        message: `must be 0 (no background refreshes) or at least MIRROR_FRESHNESS_S (${v.MIRROR_FRESHNESS_S}): it is the slower cadence of systems nobody views`,
      });
    }
    const entra = (['ENTRA_TENANT_ID', 'ENTRA_CLIENT_ID', 'ENTRA_CLIENT_SECRET'] as const).filter(
      (k) => v[k] !== undefined,
    );
    if (entra.length > 0 && entra.length < 3) {
      ctx.addIssue({
        code: 'custom',
        path: ['ENTRA_CLIENT_ID'],
        message: 'ENTRA_TENANT_ID, ENTRA_CLIENT_ID and ENTRA_CLIENT_SECRET go together',
      });
    }
  })
  .transform((v) => ({
    ...v,
    serviceMode: v.SERVICE_BASE_URL === undefined ? ('sandbox' as const) : ('remote' as const),
    databaseKind: v.DATABASE_URL === undefined ? ('pglite' as const) : ('postgres' as const),
    /** The built-in sandbox and its demo data are in use, with its control routes reachable. */
    demoMode: v.SERVICE_BASE_URL === undefined && (v.NODE_ENV !== 'production' || v.DEMO_MODE),
  }));

export type Env = z.infer<typeof envSchema>;

/**
 * Why this process must not start, or null. In production a missing service configuration is a
 * mistake, not a wish for the sandbox: the sandbox hands anyone its client secret and lets anyone
 * reset its data, so it runs there only when DEMO_MODE says so.
 */
export function startupProblem(settings: Pick<Env, 'NODE_ENV' | 'serviceMode' | 'DEMO_MODE'>): string | null {
  if (settings.NODE_ENV !== 'production' || settings.serviceMode !== 'sandbox' || settings.DEMO_MODE) return null;
  return (
    `No reservation service is configured: set ${serviceVariables.join(', ')} (and AUTH_SECRET, ENCRYPTION_KEY) ` +
    'to connect the real service, or DEMO_MODE=1 to run the built-in sandbox with demo logins (never for real residents).'
  );
}

export class EnvError extends Error {
  override name = 'EnvError';
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(
      `Invalid environment configuration:\n${problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n')}`,
    );
  }
}

/**
 * The portal's own address when PORTAL_URL is unset: the origin this server listens on. `next dev
 * -p N` and `next start -p N` both set PORT and __NEXT_PRIVATE_ORIGIN (the "Local:" URL they
 * print) in the server process once it listens, before any of the portal's code is loaded, so the
 * sandbox, the webhook and the demo connection are addressed at this very server on any port.
 */
export function defaultPortalUrl(source: Record<string, string | undefined>): string {
  const origin = source.__NEXT_PRIVATE_ORIGIN;
  if (origin) {
    try {
      const url = new URL(origin);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
    } catch {
      // not a URL: fall through to PORT
    }
  }
  const port = source.PORT;
  if (port && /^\d{1,5}$/.test(port) && Number(port) > 0 && Number(port) < 65_536) return `http://localhost:${Number(port)}`;
  return 'http://localhost:3000';
}

/** Validates a set of variables; throws an EnvError naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  cleaned.PORTAL_URL ??= defaultPortalUrl(cleaned);
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    throw new EnvError(
      result.error.issues.map((issue) => ({
        variable: issue.path.map(String).join('.') || '(environment)',
        message: issue.message,
      })),
    );
  }
  return result.data;
}

// eslint-disable-next-line no-restricted-properties -- the one place that reads the environment
export const env: Env = parseEnv(process.env);

// next-auth v4 reads NEXTAUTH_URL itself to build callback and redirect URLs; derive it from
// PORTAL_URL so that there is one setting for the portal's public address.
// eslint-disable-next-line no-restricted-properties -- the one place that touches the environment
process.env.NEXTAUTH_URL ??= env.PORTAL_URL;
