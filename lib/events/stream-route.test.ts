import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { beforeEach, expect, it } from 'vitest';
import { describeWithDb } from '@/tests/db';
import { InProcessEventBus } from './bus';
import { handleWebhookRequest } from './receive';
import { applyWebhookOutcome, markRequestAccepted } from '@/lib/reservations/lifecycle';
import { appendRequestEvent } from './store';
import { eventStreamResponse } from './stream-route';
import type { PortalEvent } from './types';
import { pendingRequestView as view } from '@/tests/request-views';

const secret = `whsec_${Buffer.from('another-test-secret-of-32-bytes!').toString('base64')}`;

/** Reads SSE frames until `count` events arrived or the time is up. */
async function readEvents(body: ReadableStream<Uint8Array> | null, count: number, timeoutMs = 2_000) {
  if (!body) throw new Error('no body');
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: { id: number; event: PortalEvent }[] = [];
  let buffer = '';
  const deadline = Date.now() + timeoutMs;
  while (events.length < count && Date.now() < deadline) {
    const chunk = await Promise.race([
      reader.read(),
      new Promise<{ done: true; value: undefined }>((r) => setTimeout(() => r({ done: true, value: undefined }), Math.max(0, deadline - Date.now()))),
    ]);
    if (chunk.done) break;
    buffer += decoder.decode(chunk.value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const id = /^id: (\d+)$/m.exec(frame)?.[1];
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      if (id && data) events.push({ id: Number(id), event: JSON.parse(data) as PortalEvent });
    }
  }
  reader.releaseLock();
  return events;
}

describeWithDb('GET /api/events', (ctx) => {
  const device = randomUUID();
  let bus: InProcessEventBus;
  const append = () => ctx().handle.db.transaction((tx) => appendRequestEvent(tx, view(device)));
  const open = (init: { header?: string; query?: string }, controller: AbortController) =>
    eventStreamResponse(
      new Request(`http://portal.test/api/events${init.query ? `?lastEventId=${init.query}` : ''}`, {
        headers: init.header ? { 'last-event-id': init.header } : {},
        signal: controller.signal,
      }),
      { db: ctx().handle.db, bus, deviceIds: [device] },
    );

  beforeEach(() => {
    bus = new InProcessEventBus();
  });

  it('answers an event stream that no proxy caches, transforms or buffers', () => {
    const controller = new AbortController();
    const response = open({}, controller);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    controller.abort();
    expect(bus.listenerCount()).toBe(0);
  });

  it('replays the gap once and in order on a reconnect with Last-Event-ID, then follows live events', async () => {
    const seen = await append();
    const gap = [await append(), await append(), await append()];
    const controller = new AbortController();
    const response = open({ header: String(seen.id), query: '0' }, controller);
    const live = await append();
    bus.publish([gap[2] as PortalEvent, live]);
    const events = await readEvents(response.body, 5, 800);
    controller.abort();
    // The header wins over the query; the gap comes once even though one of it was also published live.
    expect(events.map((e) => e.id)).toEqual([...gap.map((e) => e.id), live.id]);
    expect(bus.listenerCount()).toBe(0);
  });

  it('takes ?lastEventId= on a first connect (EventSource cannot set the header)', async () => {
    const seen = await append();
    const missed = await append();
    const controller = new AbortController();
    const events = await readEvents(open({ query: String(seen.id) }, controller).body, 2, 500);
    controller.abort();
    expect(events.map((e) => e.id)).toEqual([missed.id]);
  });

  it('gives one SSE event for the same webhook delivered ten times at once', async () => {
    const { rows } = await ctx().handle.sql.query<{ id: string }>(
      `INSERT INTO reservation_requests (kind, device_id, requested_by) VALUES ('create', $1, 'u1') RETURNING id`,
      [device],
    );
    const correlationId = randomUUID();
    await markRequestAccepted(ctx().handle.db, rows[0]?.id ?? '', correlationId);
    const controller = new AbortController();
    const response = open({}, controller);
    await new Promise((r) => setTimeout(r, 50));
    const body = JSON.stringify({
      correlationId, eventType: 'reservationResult', timestamp: new Date().toISOString(),
      eventData: { succeded: false, errorCode: 'SlotUnavailable', errorDescription: 'taken' },
    });
    const webhookId = `msg_${randomUUID()}`;
    const at = new Date();
    const signature = new Webhook(secret).sign(webhookId, at, body);
    const deliveries = Array.from({ length: 10 }, () =>
      handleWebhookRequest(
        new Request('http://portal.test/api/webhooks', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'webhook-id': webhookId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature },
          body,
        }),
        { db: ctx().handle.db, bus, secret, applyOutcome: applyWebhookOutcome },
      ),
    );
    expect((await Promise.all(deliveries)).map((r) => r.status)).toEqual(Array(10).fill(200));
    const events = await readEvents(response.body, 2, 800);
    controller.abort();
    expect(events).toHaveLength(1);
    expect(events[0]?.event.data).toMatchObject({ status: 'failed', errorCode: 'SlotUnavailable' });
  });
});
