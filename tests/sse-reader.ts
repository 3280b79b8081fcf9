/** One parsed SSE frame (comments skipped). */
export interface SseFrame {
  event: string;
  id?: number;
  data?: string;
}

/**
 * Reads an SSE body frame by frame across several calls: `until` reads until `done(frames)` holds,
 * the stream ends or the time is up, and returns every frame read so far.
 */
export class SseReader {
  readonly frames: SseFrame[] = [];
  ended = false;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';

  constructor(body: ReadableStream<Uint8Array> | null) {
    if (!body) throw new Error('no body');
    this.reader = body.getReader();
  }

  async until(done: (frames: readonly SseFrame[]) => boolean, timeoutMs = 5_000): Promise<SseFrame[]> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this.frames) && !this.ended && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        this.reader.read(),
        new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), Math.max(0, deadline - Date.now())))),
      ]);
      clearTimeout(timer);
      if (chunk === 'timeout') break;
      if (chunk.done) {
        this.ended = true;
        break;
      }
      this.buffer += this.decoder.decode(chunk.value, { stream: true });
      let end;
      while ((end = this.buffer.indexOf('\n\n')) >= 0) {
        const raw = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(raw)?.[1];
        if (!event) continue;
        const id = /^id: (\d+)$/m.exec(raw)?.[1];
        const data = /^data: (.*)$/m.exec(raw)?.[1];
        this.frames.push({ event, id: id === undefined ? undefined : Number(id), data });
      }
    }
    return this.frames;
  }

  /** Ids of the request.updated events read so far. */
  eventIds(): number[] {
    return this.frames.filter((f) => f.event === 'request.updated').map((f) => f.id ?? 0);
  }

  /** The reason of the `end` frame, if one came. */
  endReason(): string | undefined {
    const end = this.frames.find((f) => f.event === 'end');
    return end?.data ? (JSON.parse(end.data) as { reason: string }).reason : undefined;
  }
}
