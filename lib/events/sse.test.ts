import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import { describeWithDb } from '@/tests/db';
import { InProcessEventBus } from './bus';
import { createEventStream, parseLastEventId } from './sse';
import { appendRequestEvent, latestEventId, loadEventsAfter } from './store';
import type { PortalEvent } from './types';
import { pendingRequestView as view } from '@/tests/request-views';

/** Reads SSE frames from a stream until `count` events have arrived. */
async function readEvents(stream: ReadableStream<Uint8Array>, count: number, timeoutMs = 3_000) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const events: { id: number; event: PortalEvent }[] = [];
  const comments: string[] = [];
  let buffer = '';
  const deadline = Date.now() + timeoutMs;
  while (events.length < count && Date.now() < deadline) {
    const chunk = await Promise.race([
      reader.read(),
      new Promise<{ done: true; value: undefined }>((r) => setTimeout(() => r({ done: true, value: undefined }), deadline - Date.now())),
    ]);
    if (chunk.done) break;
    buffer += decoder.decode(chunk.value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (frame.startsWith(':')) comments.push(frame);
      const id = /^id: (\d+)$/m.exec(frame)?.[1];
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      if (id && data) events.push({ id: Number(id), event: JSON.parse(data) as PortalEvent });
    }
  }
  reader.releaseLock();
  return { events, comments };
}

describeWithDb('SSE event stream', (ctx) => {
  const deviceA = randomUUID();
  const deviceB = randomUUID();
  let bus: InProcessEventBus;

  const append = (deviceId: string) =>
    ctx().handle.db.transaction((tx) => appendRequestEvent(tx, view(deviceId)));
  const open = (lastEventId: number | undefined, deviceIds: string[] | 'all', signal?: AbortSignal, heartbeatMs?: number) =>
    createEventStream({
      bus,
      deviceIds,
      lastEventId,
      signal,
      heartbeatMs,
      loadAfter: (after, ids, limit) => loadEventsAfter(ctx().handle.db, after, ids, limit),
      latestId: () => latestEventId(ctx().handle.db),
    });

  beforeEach(() => {
    bus = new InProcessEventBus();
  });

  it('replays exactly the missed events once and in order, then follows live ones', async () => {
    const seen = await append(deviceA);
    const missed = [await append(deviceA), await append(deviceB), await append(deviceA)];
    const controller = new AbortController();
    const stream = open(seen.id, [deviceA], controller.signal);
    // A live event published twice (as a racing backlog read would see it) must arrive once.
    const live = await append(deviceA);
    bus.publish([live, live]);
    const { events } = await readEvents(stream, 3);
    controller.abort();
    const expected = [missed[0], missed[2], live].map((e) => e?.id);
    expect(events.map((e) => e.id)).toEqual(expected);
    expect(events.every((e) => e.event.deviceId === deviceA)).toBe(true);
  });

  it('sends only new events to a fresh connection and nothing of systems it may not see', async () => {
    await append(deviceA);
    const controller = new AbortController();
    const stream = open(undefined, [deviceA], controller.signal);
    await new Promise((r) => setTimeout(r, 50));
    const other = await append(deviceB);
    const mine = await append(deviceA);
    bus.publish([other, mine]);
    const { events } = await readEvents(stream, 1, 500);
    controller.abort();
    expect(events.map((e) => e.id)).toEqual([mine.id]);
  });

  it('sends heartbeats and releases its listener and timer on disconnect', async () => {
    const controller = new AbortController();
    const stream = open(undefined, 'all', controller.signal, 20);
    const { comments } = await readEvents(stream, 1, 120);
    expect(comments.some((c) => c.startsWith(': heartbeat'))).toBe(true);
    expect(bus.listenerCount()).toBe(1);
    controller.abort();
    expect(bus.listenerCount()).toBe(0);
  });
});

it('parses Last-Event-ID strictly', () => {
  expect(parseLastEventId('42')).toBe(42);
  expect(parseLastEventId('')).toBeUndefined();
  expect(parseLastEventId('-1')).toBeUndefined();
  expect(parseLastEventId('1; DROP TABLE x')).toBeUndefined();
  expect(parseLastEventId(null)).toBeUndefined();
});
