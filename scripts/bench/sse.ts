// Webhook-to-browser latency: N plain HTTP readers of GET /api/events (each with the session
// cookie, as a browser's EventSource), and signed reservationResult webhooks sent one after the
// other; each reader notes when each outcome reaches it.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export interface SseClient {
  /** request id → arrival time (performance.now()) */
  arrivals: Map<string, number>;
  /** Events that arrived again after their first arrival (each should arrive once). */
  duplicates(): number;
  close(): void;
}

/** Opens one SSE stream; resolves once the stream has started (its first bytes arrived). */
export function openSseClient(baseUrl: string, cookie: string, agent: http.Agent): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const arrivals = new Map<string, number>();
    // By the stream's event ids: an event delivered twice to one stream (a request's later events keep its id in `data`).
    const seen = new Set<string>();
    let duplicates = 0;
    const request = http.get(`${baseUrl}/api/events`, { agent, headers: { cookie, accept: 'text/event-stream' } }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`GET /api/events answered ${response.statusCode}`));
        response.resume();
        return;
      }
      response.setEncoding('utf8');
      let buffer = '';
      let started = false;
      response.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          const eventId = lines.find((line) => line.startsWith('id: '))?.slice(4);
          if (eventId !== undefined) {
            if (seen.has(eventId)) duplicates += 1;
            seen.add(eventId);
          }
          const data = lines.find((line) => line.startsWith('data: '));
          if (!data) continue;
          const event = JSON.parse(data.slice(6)) as { data?: { id?: string } };
          if (event.data?.id && !arrivals.has(event.data.id)) arrivals.set(event.data.id, at);
        }
        if (!started) {
          started = true;
          resolve({ arrivals, duplicates: () => duplicates, close: () => request.destroy() });
        }
      });
      response.on('error', () => undefined);
    });
    request.on('error', (error) => reject(error));
  });
}

export interface PendingRequest {
  id: string;
  correlationId: string;
}

/** A signed reservationResult delivery, as the upstream sends it (service-notes A, Standard Webhooks). */
export function signOutcome(secret: string, correlationId: string): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    correlationId,
    eventType: 'reservationResult',
    eventData: { succeded: true, errorCode: null, errorDescription: null, data: { reservationId: randomUUID(), operation: 'create' } },
    timestamp: new Date().toISOString(),
  });
  const id = `msg_${randomUUID()}`;
  const now = new Date();
  const signature = new Webhook(secret).sign(id, now, body);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    },
  };
}

export interface WebhookRun {
  /** request id → send time (performance.now()) */
  sent: Map<string, number>;
  webhookMs: number[];
}

/** Sends one outcome per request, each after the previous one was answered. */
export async function sendOutcomes(baseUrl: string, secret: string, requests: readonly PendingRequest[]): Promise<WebhookRun> {
  const sent = new Map<string, number>();
  const webhookMs: number[] = [];
  for (const r of requests) {
    const { body, headers } = signOutcome(secret, r.correlationId);
    const start = performance.now();
    sent.set(r.id, start);
    const response = await fetch(`${baseUrl}/api/webhooks`, { method: 'POST', headers, body });
    const text = await response.text();
    webhookMs.push(performance.now() - start);
    if (response.status !== 200) throw new Error(`POST /api/webhooks answered ${response.status}: ${text.slice(0, 300)}`);
  }
  return { sent, webhookMs };
}
