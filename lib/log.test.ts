import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { withErrors } from '@/lib/api/route';
import { captureLog, createLogger, log, redact } from './log';

/** pino's destination, kept in memory: every line written, parsed. */
function memoryDestination() {
  const lines: Record<string, unknown>[] = [];
  return { lines, write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
}

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});
function capture(level?: Parameters<typeof captureLog>[1]) {
  const destination = memoryDestination();
  restore = captureLog(destination, level);
  return destination.lines;
}

describe('log lines', () => {
  it('are JSON with level, ISO time and message, and no request id outside a request', () => {
    const lines = capture();
    log.info('mirror refreshed', { deviceId: 'd-1', pages: 3 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', message: 'mirror refreshed', deviceId: 'd-1', pages: 3 });
    expect(new Date(String(lines[0]?.time)).toISOString()).toBe(lines[0]?.time);
    expect(lines[0]).not.toHaveProperty('requestId');
  });

  it('keep LOG_LEVEL semantics: below the level nothing is written, silent writes nothing', () => {
    const lines = capture('warn');
    log.debug('d');
    log.info('i');
    log.warn('w');
    log.error('e');
    expect(lines.map((l) => [l.level, l.message])).toEqual([
      ['warn', 'w'],
      ['error', 'e'],
    ]);
    restore?.();
    const none = capture('silent');
    log.error('not written');
    expect(none).toEqual([]);
  });

  it('redact secret-looking keys at any depth, secret-looking values, and reduce errors to name and message', () => {
    const lines = capture();
    const webhookSecret = `whsec_${'A'.repeat(40)}`;
    log.warn('upstream refused', {
      apiKey: 'k-123',
      client_secret: 'cs',
      headers: { authorization: 'Bearer abc.def', cookie: 'session=1', 'set-cookie': 'a=b', accept: 'application/json' },
      deep: { deeper: { deepest: { access_token: 'tok', password: 'pw' } } },
      detail: `configured with ${webhookSecret}`,
      sent: 'Authorization: Bearer eyJhbGciOi.xyz',
      error: Object.assign(new Error(`bad secret ${webhookSecret}`), { token: 'on-the-error' }),
    });
    const line = lines[0] ?? {};
    const text = JSON.stringify(line);
    for (const secret of ['k-123', '"cs"', 'abc.def', 'session=1', 'a=b', '"tok"', '"pw"', webhookSecret, 'eyJhbGciOi', 'on-the-error']) {
      expect(text).not.toContain(secret);
    }
    expect(line).toMatchObject({
      apiKey: '[redacted]',
      client_secret: '[redacted]',
      headers: { authorization: '[redacted]', cookie: '[redacted]', 'set-cookie': '[redacted]', accept: 'application/json' },
      deep: { deeper: { deepest: { access_token: '[redacted]', password: '[redacted]' } } },
      detail: 'configured with [redacted]',
      sent: 'Authorization: Bearer [redacted]',
      error: { name: 'Error', message: 'bad secret [redacted]' },
    });
  });

  it("redact by path in pino itself (for fields that bypass redact(), such as a child logger's bindings)", () => {
    const destination = memoryDestination();
    const logger = createLogger('info', destination);
    logger.child({ token: 't-1', upstream: { clientSecret: 'c-1', headers: { 'x-api-key': 'x-1' } } }).info({ a: { b: { secret: 's-1' } } }, 'bound');
    const text = JSON.stringify(destination.lines);
    for (const secret of ['t-1', 'c-1', 'x-1', 's-1']) expect(text).not.toContain(secret);
    expect(destination.lines[0]).toMatchObject({ message: 'bound', token: '[redacted]', a: { b: { secret: '[redacted]' } } });
  });

  it('redact personal data: names, e-mail addresses and notes by key at any depth, and e-mail addresses inside any value', () => {
    const lines = capture();
    log.warn('mail will be retried', {
      mailId: 'm-1',
      recipient: 'anna.andersson1@example.com',
      recipientName: 'Anna Andersson',
      request: { residentName: 'Erik Nilsson', requestedByName: 'Demo Manager', note: 'Ring Eriks dörr', residentApartment: '1203' },
      audit: { actorName: 'Admin Adminsson', targetName: 'Karin Holm', detail: { email: 'karin@example.org', role: 'manager' } },
      error: new Error('550 5.1.1 <Maria.Berg7+tvatt@example.net>: Recipient address rejected'),
      resourceName: 'Tvättstuga 1',
      systemName: 'Brf Linnégatan 12, Uppsala',
    });
    const text = JSON.stringify(lines);
    for (const personal of ['anna.andersson1@example.com', 'Anna Andersson', 'Erik Nilsson', 'Demo Manager', 'Ring Eriks', 'Admin Adminsson', 'Karin Holm', 'karin@example.org', 'Maria.Berg7']) {
      expect(text).not.toContain(personal);
    }
    expect(lines[0]).toMatchObject({
      mailId: 'm-1',
      recipient: '[redacted]',
      recipientName: '[redacted]',
      request: { residentName: '[redacted]', requestedByName: '[redacted]', note: '[redacted]', residentApartment: '1203' },
      audit: { actorName: '[redacted]', targetName: '[redacted]', detail: { email: '[redacted]', role: 'manager' } },
      error: { name: 'Error', message: '550 5.1.1 <[email]>: Recipient address rejected' },
      // Rooms and systems are not people: their names stay readable.
      resourceName: 'Tvättstuga 1',
      systemName: 'Brf Linnégatan 12, Uppsala',
    });
  });

  it('redact personal keys in pino itself too (a child logger’s bindings bypass redact())', () => {
    const destination = memoryDestination();
    const logger = createLogger('info', destination);
    logger.child({ email: 'sara@example.com', mail: { recipientName: 'Sara Lund', recipient: 'sara@example.com' } }).info({ row: { note: 'n-1', residentName: 'Per Berg' } }, 'bound');
    const text = JSON.stringify(destination.lines);
    for (const personal of ['sara@example.com', 'Sara Lund', 'n-1', 'Per Berg']) expect(text).not.toContain(personal);
    expect(destination.lines[0]).toMatchObject({ email: '[redacted]', mail: { recipientName: '[redacted]' }, row: { note: '[redacted]', residentName: '[redacted]' } });
  });

  it('redact() keeps what it did before pino: keys by pattern, errors reduced, depth capped', () => {
    expect(redact({ Authorization: 'x', myApiKey: 'y', credentials: { a: 1 }, ok: 1 })).toEqual({
      Authorization: '[redacted]',
      myApiKey: '[redacted]',
      credentials: '[redacted]',
      ok: 1,
    });
    expect(redact([new TypeError('t')])).toEqual([{ name: 'TypeError', message: 't' }]);
  });
});

describe('request ids', () => {
  const route = withErrors(async (request: Request) => {
    log.info('handling', { path: new URL(request.url).pathname });
    await new Promise((resolve) => setTimeout(resolve, 5));
    log.warn('still handling');
    if (request.headers.get('x-fail')) throw new Error('boom');
    return Response.json({ ok: true });
  });
  const call = (headers: Record<string, string> = {}) => route(new Request('http://portal.test/api/things', { headers }), undefined);

  it('are generated, put on every log line of the request, and echoed as x-request-id', async () => {
    const lines = capture();
    const response = await call();
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.map((l) => l.requestId)).toEqual([id, id]);
  });

  it("are taken from a valid incoming x-request-id, and replaced when it is not one", async () => {
    const lines = capture();
    const given = `lb-${randomUUID()}:1.a_b`;
    expect((await call({ 'x-request-id': given })).headers.get('x-request-id')).toBe(given);
    for (const bad of ['has space', 'x'.repeat(129), 'semi;colon', 'new\u00e9line']) {
      const echoed = (await call({ 'x-request-id': bad })).headers.get('x-request-id');
      expect(echoed).not.toBe(bad);
      expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(lines[0]?.requestId).toBe(given);
  });

  it('stay apart for concurrent requests, and reach the unhandled-error line and the 500 answer', async () => {
    const lines = capture();
    const [a, b, failed] = await Promise.all([call({ 'x-request-id': 'req-a' }), call({ 'x-request-id': 'req-b' }), call({ 'x-request-id': 'req-c', 'x-fail': '1' })]);
    expect([a.headers.get('x-request-id'), b.headers.get('x-request-id'), failed.headers.get('x-request-id')]).toEqual(['req-a', 'req-b', 'req-c']);
    expect(failed.status).toBe(500);
    for (const id of ['req-a', 'req-b']) expect(lines.filter((l) => l.requestId === id).map((l) => l.message)).toEqual(['handling', 'still handling']);
    expect(lines.filter((l) => l.requestId === 'req-c').map((l) => l.message)).toEqual(['handling', 'still handling', 'unhandled error in route handler']);
  });
});

describe('request ids on answers whose headers are immutable', () => {
  it('reach a redirect too (its headers cannot be changed, so it is answered with a copy)', async () => {
    const route = withErrors(() => Response.redirect('http://portal.test/elsewhere', 303));
    const response = await route(new Request('http://portal.test/api/go', { headers: { 'x-request-id': 'req-redirect' } }), undefined);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('http://portal.test/elsewhere');
    expect(response.headers.get('x-request-id')).toBe('req-redirect');
  });
});
