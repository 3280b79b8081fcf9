import { afterEach, describe, expect, it } from 'vitest';
import { InProcessEventBus } from './bus';
import { openStreamEnders, STREAMS_PER_SESSION, STREAMS_PER_USER, trackOpenStream, type StreamEndReason } from './open-streams';
import { createEventStream } from './sse';

const untracks: (() => void)[] = [];
afterEach(() => {
  untracks.splice(0).forEach((untrack) => untrack());
});

/** Opens `count` tracked streams for an owner; returns the reasons each was ended with (or undefined). */
function open(count: number, owner: { userId: string; sessionId: string }) {
  const reasons: (StreamEndReason | undefined)[] = [];
  for (let i = 0; i < count; i += 1) {
    const index = reasons.push(undefined) - 1;
    untracks.push(trackOpenStream((reason) => (reasons[index] = reason), owner));
  }
  return reasons;
}

describe('caps on open event streams (issue 33, item 3)', () => {
  it('ends the oldest streams of a session beyond STREAMS_PER_SESSION as superseded', () => {
    const reasons = open(50, { userId: 'u1', sessionId: 's1' });
    expect(reasons.filter((r) => r === 'superseded')).toHaveLength(50 - STREAMS_PER_SESSION);
    // The newest ten are the ones left open.
    expect(reasons.slice(-STREAMS_PER_SESSION)).toEqual(Array(STREAMS_PER_SESSION).fill(undefined));
    expect(openStreamEnders()).toHaveLength(STREAMS_PER_SESSION);
  });

  it('ends the oldest streams of a user beyond STREAMS_PER_USER over all sessions, and leaves other users alone', () => {
    const other = open(5, { userId: 'u3', sessionId: 'x' });
    const sessions = Array.from({ length: 5 }, (_, i) => open(STREAMS_PER_SESSION, { userId: 'u2', sessionId: `s${i}` }));
    const open2 = sessions.flat().filter((r) => r === undefined).length;
    expect(open2).toBe(STREAMS_PER_USER);
    // The first sessions' streams (the oldest) were the ones ended.
    expect(sessions[0]).toEqual(Array(STREAMS_PER_SESSION).fill('superseded'));
    expect(sessions[4]).toEqual(Array(STREAMS_PER_SESSION).fill(undefined));
    expect(other).toEqual(Array(5).fill(undefined));
  });

  it("sends the superseded stream an `end` frame and closes it", async () => {
    const bus = new InProcessEventBus();
    const owner = { userId: 'u4', sessionId: 's' };
    const streams = Array.from({ length: STREAMS_PER_SESSION + 1 }, () =>
      createEventStream({ bus, deviceIds: 'all', owner, loadAfter: () => Promise.resolve([]), latestId: () => Promise.resolve(0) }),
    );
    // Streams start when read; start them in order.
    const readers = streams.map((s) => s.getReader());
    const first = readers[0]!;
    let text = '';
    for (;;) {
      const chunk = await first.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    expect(text).toContain('event: end\ndata: {"reason":"superseded"}');
    await Promise.all(readers.slice(1).map((r) => r.cancel()));
  });
});
