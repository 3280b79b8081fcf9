import 'server-only';
import pino, { type DestinationStream, type Logger } from 'pino';
import { env } from '@/lib/env';
import { currentRequestContext } from '@/lib/observability/request-context';
import { singleton } from '@/lib/singleton';

type Level = 'debug' | 'info' | 'warn' | 'error';
type LevelSetting = Level | 'silent';

// Keys whose values are never written, whatever the caller passes.
const SECRET_KEY = /secret|password|token|api[-_]?key|authorization|cookie|credential/i;
// Values that are secrets whatever their key: webhook signing secrets and bearer credentials.
const SECRET_VALUE = /\bwhsec_[A-Za-z0-9+/=_-]+|\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;
// Personal data is never logged (docs/personal-data.md): keys that carry names, e-mail addresses
// or notes, whatever the caller passes, and any e-mail address inside a value (an SMTP refusal
// quoting its recipient, an error message).
const PERSONAL_KEY = /e-?mail|^recipients?$|^notes?$|^(resident|recipient|requested_?by|actor|target|created_?by|user|full|first|last|person|holder)_?names?$/i;
const EMAIL_VALUE = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;

function scrubValue(text: string): string {
  return text
    .replace(SECRET_VALUE, (match) => (match.startsWith('whsec_') ? '[redacted]' : `${match.split(/\s+/)[0]} [redacted]`))
    .replace(EMAIL_VALUE, '[email]');
}

/** Fields as they may be written: secret-looking and personal keys and values replaced, errors reduced to name and message. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubValue(value);
  if (depth > 5 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return { name: value.name, message: scrubValue(value.message) };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) || PERSONAL_KEY.test(k) ? '[redacted]' : redact(v, depth + 1)]),
  );
}

/**
 * pino's own redaction by path, behind redact() above: the same keys at the top and two levels
 * down (`*` matches one level; pino has no "any depth"), so a field that reaches pino some other
 * way (a child logger's bindings) is covered as well.
 */
const REDACTED_KEYS = [
  'authorization',
  '["set-cookie"]',
  'cookie',
  'password',
  'apiKey',
  'api_key',
  '["x-api-key"]',
  'clientSecret',
  'client_secret',
  'secret',
  'token',
  'access_token',
  'refresh_token',
  'WEBHOOK_SECRET',
  'SERVICE_CLIENT_SECRET',
  'AUTH_SECRET',
  'ENCRYPTION_KEY',
  'METRICS_TOKEN',
  // Personal data (PERSONAL_KEY above).
  'email',
  'recipient',
  'note',
  'residentName',
  'recipientName',
  'requestedByName',
  'actorName',
  'targetName',
  'createdByName',
  'userName',
];
const join = (prefix: string, key: string) => (key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`);
export const REDACT_PATHS = REDACTED_KEYS.flatMap((key) => [key, join('*', key), join('*.*', key)]);

/** A pino logger writing one JSON line per call: `{"level":"info","time":"…","message":"…",…}`. */
export function createLogger(level: LevelSetting, destination: DestinationStream): Logger {
  return pino(
    {
      level,
      messageKey: 'message',
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Every line written while a request is handled names it (lib/observability/request-context.ts).
      mixin: () => {
        const context = currentRequestContext();
        return context ? { requestId: context.requestId } : {};
      },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    destination,
  );
}

/** Debug and info lines go to stdout, warnings and errors to stderr (as before pino). */
function defaultDestination(): DestinationStream {
  return pino.multistream(
    [
      { level: 'debug', stream: pino.destination({ dest: 1, sync: true }) },
      { level: 'warn', stream: pino.destination({ dest: 2, sync: true }) },
    ],
    { dedupe: true },
  );
}

const state = singleton('logger', () => ({ logger: createLogger(env.LOG_LEVEL, defaultDestination()) }));

/**
 * Sends the log to `destination` at `level` until the returned function is called (tests read
 * the lines this way; the API below is unchanged).
 */
export function captureLog(destination: DestinationStream, level: LevelSetting = 'debug'): () => void {
  const previous = state.logger;
  state.logger = createLogger(level, destination);
  return () => {
    state.logger = previous;
  };
}

function write(level: Level, message: string, fields?: Record<string, unknown>) {
  const logger = state.logger;
  if (!logger.isLevelEnabled(level)) return;
  if (fields === undefined) logger[level](message);
  else logger[level](redact(fields) as object, message);
}

/** Structured JSON logging (pino) with secret-looking and personal fields redacted and the request id added. */
export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write('debug', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('error', message, fields),
};
