import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { beforeEach, expect, it } from 'vitest';
import { describeWithDb } from '@/tests/db';
import { createPgliteTestDb } from '@/tests/db';
import { InProcessEventBus } from './bus';
import { handleWebhookRequest } from './receive';
import { applyWebhookOutcome, markRequestAccepted } from '@/lib/reservations/lifecycle';
import type { PortalEvent } from './types';

const secret = `whsec_${Buffer.from('a-test-secret-of-32-bytes-length').toString('base64')}`;
const signer = new Webhook(secret);

function resultEnvelope(correlationId: string, succeeded: boolean, extra: Record<string, unknown> = {}) {
  return {
    correlationId,
    eventType: 'reservationResult',
    timestamp: new Date().toISOString(),
    eventData: succeeded
      ? { succeded: true, errorCode: null, errorDescription: null, data: { reservationId: randomUUID(), operation: 'create' } }
      : { succeded: false, errorCode: 'QuotaExceeded', errorDescription: 'Quota exceeded', ...extra },
  };
}

function signedRequest(body: string, opts: { id?: string; at?: Date; signWith?: string; drop?: string } = {}) {
  const id = opts.id ?? `msg_${randomUUID()}`;
  const at = opts.at ?? new Date();
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signer.sign(id, at, opts.signWith ?? body),
  };
  if (opts.drop) delete headers[opts.drop];
  return new Request('http://portal.test/api/webhooks', { method: 'POST', headers, body });
}

describeWithDb('POST /api/webhooks', (ctx) => {
  let bus: InProcessEventBus;
  let published: PortalEvent[];
  const deps = () => ({ db: ctx().handle.db, bus, secret, applyOutcome: applyWebhookOutcome });
  const count = async (table: string) =>
    Number((await ctx().handle.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]?.n);

  async function pendingRequest(deviceId = randomUUID()) {
    const { rows } = await ctx().handle.sql.query<{ id: string }>(
      `INSERT INTO reservation_requests (kind, device_id, resource_id, requested_by) VALUES ('create', $1, $2, 'u1') RETURNING id`,
      [deviceId, randomUUID()],
    );
    const correlationId = randomUUID();
    await markRequestAccepted(ctx().handle.db, rows[0]?.id ?? '', correlationId);
    return { requestId: rows[0]?.id ?? '', correlationId, deviceId };
  }

  it('reads an outcome in any shape a real service may send: minute or offset times, extra fields, a non-RFC GUID', async () => {
    for (const timestamp of ['2026-11-24T07:00Z', '2026-11-24T08:00+01:00', '2026-11-24T07:00:00.0000000Z', 'not a time']) {
      const { requestId, correlationId } = await pendingRequest();
      const body = resultEnvelope(correlationId, true);
      const reservationId = '6f1c2a3b-4d5e-0f70-0a1b-2c3d4e5f6a7b'; // version 0: a .NET GUID, not an RFC 9562 UUID
      const odd = {
        ...body,
        timestamp,
        etag: 'W/"1"',
        eventData: { ...body.eventData, data: { reservationId, operation: 'create', _links: {} }, tenantRef: null },
      };
      const response = await handleWebhookRequest(signedRequest(JSON.stringify(odd)), deps());
      expect(response.status, timestamp).toBe(200);
      const { rows } = await ctx().handle.sql.query<{ status: string; reservation_id: string }>('SELECT status, reservation_id FROM reservation_requests WHERE id = $1', [requestId]);
      expect(rows[0]).toMatchObject({ status: 'succeeded', reservation_id: reservationId });
    }
  });

  it('reads an outcome whose correlation and reservation ids are in upper case, mixed case or braces (issue 47)', async () => {
    for (const spell of [(id: string) => id.toUpperCase(), (id: string) => id.replace(/[a-f]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c)), (id: string) => `{${id}}`, (id: string) => `{${id.toUpperCase()}}`]) {
      const { requestId, correlationId } = await pendingRequest();
      const reservationId = randomUUID();
      const body = { ...resultEnvelope(spell(correlationId), true), eventData: { succeded: true, errorCode: null, errorDescription: null, data: { reservationId: spell(reservationId), operation: 'create' } } };
      const response = await handleWebhookRequest(signedRequest(JSON.stringify(body)), deps());
      expect(response.status, spell(correlationId)).toBe(200);
      const { rows } = await ctx().handle.sql.query<{ status: string; reservation_id: string }>('SELECT status, reservation_id::text FROM reservation_requests WHERE id = $1', [requestId]);
      expect(rows[0]).toMatchObject({ status: 'succeeded', reservation_id: reservationId });
    }
  });

  beforeEach(async () => {
    bus = new InProcessEventBus();
    published = [];
    bus.subscribe((e) => published.push(e));
    await ctx().handle.sql.exec('DELETE FROM webhook_events; DELETE FROM portal_events; DELETE FROM reservation_requests;');
  });

  it('stores a verified outcome and resolves the request, publishing one event', async () => {
    const { requestId, correlationId } = await pendingRequest();
    const response = await handleWebhookRequest(signedRequest(JSON.stringify(resultEnvelope(correlationId, true))), deps());
    expect(response.status).toBe(200);
    const { rows } = await ctx().handle.sql.query('SELECT status, reservation_id FROM reservation_requests WHERE id = $1', [requestId]);
    expect(rows[0]?.status).toBe('succeeded');
    expect(rows[0]?.reservation_id).toBeTruthy();
    expect(published.map((e) => e.data.status)).toEqual(['succeeded']);
  });

  it.each([
    ['a bad signature', () => signedRequest(JSON.stringify(resultEnvelope(randomUUID(), true)), { signWith: '{"forged":true}' }), 401],
    ['an altered body', () => {
      const body = JSON.stringify(resultEnvelope(randomUUID(), true));
      const req = signedRequest(body);
      return new Request(req.url, { method: 'POST', headers: req.headers, body: body.replace('true', 'false') });
    }, 401],
    ['a stale timestamp', () => signedRequest(JSON.stringify(resultEnvelope(randomUUID(), true)), { at: new Date(Date.now() - 6 * 60_000) }), 401],
    ['a missing signature header', () => signedRequest(JSON.stringify(resultEnvelope(randomUUID(), true)), { drop: 'webhook-signature' }), 401],
    ['a missing id header', () => signedRequest(JSON.stringify(resultEnvelope(randomUUID(), true)), { drop: 'webhook-id' }), 400],
    ['a signed but malformed event', () => signedRequest(JSON.stringify({ eventType: 'reservationResult', correlationId: 'nope' })), 400],
    ['signed non-JSON', () => signedRequest('not json'), 400],
  ])('refuses %s and stores nothing', async (_name, make, status) => {
    const response = await handleWebhookRequest(make(), deps());
    expect(response.status).toBe(status);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/\w/);
    expect(body.error.message).not.toContain(secret);
    expect(await count('webhook_events')).toBe(0);
    expect(published).toEqual([]);
  });

  it('stores the same delivery sent ten times at once once, and publishes one event', async () => {
    const { correlationId } = await pendingRequest();
    const body = JSON.stringify(resultEnvelope(correlationId, false));
    const id = `msg_${randomUUID()}`;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => handleWebhookRequest(signedRequest(body, { id }), deps())),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await count('webhook_events')).toBe(1);
    expect(published).toHaveLength(1);
    expect(published[0]?.data).toMatchObject({ status: 'failed', errorCode: 'QuotaExceeded' });
  });

  it('keeps an outcome for an unknown correlation id, and applies it when the request is recorded', async () => {
    const correlationId = randomUUID();
    const response = await handleWebhookRequest(signedRequest(JSON.stringify(resultEnvelope(correlationId, true))), deps());
    expect(response.status).toBe(200);
    expect(await count('webhook_events')).toBe(1);
    expect(published).toEqual([]);

    const { rows } = await ctx().handle.sql.query<{ id: string }>(
      `INSERT INTO reservation_requests (kind, device_id, requested_by) VALUES ('create', $1, 'u1') RETURNING id`,
      [randomUUID()],
    );
    const events = await markRequestAccepted(ctx().handle.db, rows[0]?.id ?? '', correlationId);
    expect(events.map((e) => e.data.status)).toEqual(['pending', 'succeeded']);
  });

  it('keeps the first outcome when a different delivery for the same request arrives later', async () => {
    const { requestId, correlationId } = await pendingRequest();
    await handleWebhookRequest(signedRequest(JSON.stringify(resultEnvelope(correlationId, false))), deps());
    await handleWebhookRequest(signedRequest(JSON.stringify(resultEnvelope(correlationId, true))), deps());
    const { rows } = await ctx().handle.sql.query('SELECT status FROM reservation_requests WHERE id = $1', [requestId]);
    expect(rows[0]?.status).toBe('failed');
    expect(published).toHaveLength(1);
  });

  it('accepts the corrected spelling `succeeded` as well', async () => {
    const { correlationId } = await pendingRequest();
    const envelope = { ...resultEnvelope(correlationId, true), eventData: { succeeded: true, errorCode: null, errorDescription: null } };
    expect((await handleWebhookRequest(signedRequest(JSON.stringify(envelope)), deps())).status).toBe(200);
    expect(published[0]?.data.status).toBe('succeeded');
  });

  it('refuses a body over the limit with 413', async () => {
    const body = JSON.stringify({ ...resultEnvelope(randomUUID(), true), pad: 'x'.repeat(300_000) });
    expect((await handleWebhookRequest(signedRequest(body), deps())).status).toBe(413);
    expect(await count('webhook_events')).toBe(0);
  });
});

it('answers 503 when the database fails, so that the sender retries', async () => {
  const broken = await createPgliteTestDb();
  await broken.dispose();
  const response = await handleWebhookRequest(
    signedRequest(JSON.stringify(resultEnvelope(randomUUID(), true))),
    { db: broken.handle.db, bus: new InProcessEventBus(), secret, applyOutcome: applyWebhookOutcome },
  );
  expect(response.status).toBe(503);
}, 120_000); // a fresh embedded database of its own: over 20 s on a busy machine
