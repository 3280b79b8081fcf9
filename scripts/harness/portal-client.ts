// Talking to a running portal as its callers do: sign-in, SSE, signed webhooks; and test rows in its database.
import { randomUUID } from 'node:crypto';
import bcrypt from 'bcryptjs';
import type pg from 'pg';
import { Webhook } from 'standardwebhooks';

export interface Account {
  email: string;
  password: string;
}

/** An admin account written straight into the portal's database (admins see every system's events). */
export async function createAdmin(db: pg.Client): Promise<Account> {
  const account = { email: `scale-admin-${randomUUID().slice(0, 8)}@example.com`, password: `pw-${randomUUID()}` };
  await db.query(`INSERT INTO users (email, name, role, password_hash) VALUES ($1, 'Scale Admin', 'admin', $2)`, [
    account.email,
    await bcrypt.hash(account.password, 10),
  ]);
  return account;
}

function cookiesOf(response: Response): string[] {
  return response.headers.getSetCookie().map((c) => c.split(';')[0] ?? '');
}

/** Signs in through next-auth's credentials flow; returns the Cookie header of the session. */
export async function signIn(baseUrl: string, account: Account): Promise<string> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = cookiesOf(csrf);
  const response = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.join('; '), origin: baseUrl },
    body: new URLSearchParams({ csrfToken, email: account.email, password: account.password, json: 'true' }),
  });
  await response.body?.cancel();
  const session = cookiesOf(response).find((c) => c.startsWith('next-auth.session-token'));
  if (!session) throw new Error(`sign-in failed on ${baseUrl}: ${response.status}`);
  return session;
}

export interface SseEvent {
  id: number;
  requestId: string;
  status: string;
  receivedAt: number;
}

export interface SseClient {
  events: SseEvent[];
  /** Reasons of the `event: end` frames received (the portal closing the stream: restart, signed-out…). */
  ended: string[];
  /** Resolves once the stream is open (the first frame arrived); rejects when it could not be opened within 60 s. */
  opened: Promise<void>;
  reconnects: number;
  close(): void;
}

/**
 * Session cookies for `clients` event streams as that many tabs of different people would hold
 * them: the portal caps open streams at 10 per session and 30 per user (lib/events/open-streams.ts),
 * so each session serves 10 streams and each new admin account three sessions. Returns one cookie
 * per client.
 */
export async function streamCookies(baseUrl: string, db: pg.Client, clients: number): Promise<string[]> {
  const sessions: string[] = [];
  let account: Account | undefined;
  for (let i = 0; i < Math.ceil(clients / 10); i += 1) {
    if (i % 3 === 0) account = await createAdmin(db);
    sessions.push(await signIn(baseUrl, account!));
  }
  return Array.from({ length: clients }, (_, i) => sessions[Math.floor(i / 10)]!);
}

/**
 * An EventSource-like client over fetch: follows the stream, and on a drop reconnects with
 * Last-Event-ID like a browser does, so what the portal promises to a browser is what is measured.
 */
export function openSse(baseUrl: string, cookie: string, options: { reconnect?: boolean } = {}): SseClient {
  const controller = new AbortController();
  const events: SseEvent[] = [];
  let lastId: number | undefined;
  let isOpen = false;
  let markOpen = () => undefined as void;
  let failOpen = (_error: Error) => undefined as void;
  const opened = new Promise<void>((resolve, reject) => {
    markOpen = () => {
      isOpen = true;
      resolve();
    };
    failOpen = reject;
  });
  // A caller that never awaits `opened` must not see an unhandled rejection.
  opened.catch(() => undefined);
  const openBy = performance.now() + 60_000;
  const ended: string[] = [];
  const client: SseClient = { events, ended, opened, reconnects: 0, close: () => controller.abort() };

  const run = async () => {
    let lastError = '';
    while (!controller.signal.aborted) {
      try {
        const headers: Record<string, string> = { cookie, accept: 'text/event-stream' };
        if (lastId !== undefined) headers['last-event-id'] = String(lastId);
        const response = await fetch(`${baseUrl}/api/events`, { headers, signal: controller.signal });
        if (!response.ok || !response.body) throw new Error(`SSE answered ${response.status}`);
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            markOpen();
            const id = /^id: (\d+)$/m.exec(frame)?.[1];
            const data = /^data: (.*)$/m.exec(frame)?.[1];
            if (/^event: end$/m.test(frame) && data) ended.push((JSON.parse(data) as { reason?: string }).reason ?? '');
            if (!id || !data) continue;
            const parsed = JSON.parse(data) as { data: { id: string; status: string } };
            lastId = Number(id);
            events.push({ id: lastId, requestId: parsed.data.id, status: parsed.data.status, receivedAt: performance.now() });
          }
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        lastError = error instanceof Error ? error.message : String(error);
      }
      // Not open yet (refused, or the portal busy): tried again like a browser's EventSource, also
      // without `reconnect`, which is about a stream that was open and ended.
      if (!isOpen && performance.now() > openBy) {
        failOpen(new Error(`the event stream of ${baseUrl} did not open within 60 s (${lastError || 'no frame'})`));
        return;
      }
      if (isOpen && (options.reconnect === false || controller.signal.aborted)) return;
      if (controller.signal.aborted) return;
      if (isOpen) client.reconnects += 1;
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  void run();
  return client;
}

/** Pending request rows as the booking flow leaves them after the upstream's 202. */
export async function createPendingRequests(db: pg.Client, deviceId: string, count: number): Promise<{ requestId: string; correlationId: string }[]> {
  const { rows } = await db.query<{ id: string; correlation_id: string }>(
    `INSERT INTO reservation_requests (kind, device_id, resource_id, requested_by, status, correlation_id)
     SELECT 'create', $1, gen_random_uuid(), 'scale-test', 'pending', gen_random_uuid() FROM generate_series(1, $2)
     RETURNING id, correlation_id`,
    [deviceId, count],
  );
  return rows.map((r) => ({ requestId: r.id, correlationId: r.correlation_id }));
}

export function webhookSender(secret: string) {
  const signer = new Webhook(secret);
  return {
    /** A signed reservationResult delivery; the same webhookId makes it a retry. */
    build(correlationId: string, webhookId = `msg_${randomUUID()}`) {
      const body = JSON.stringify({
        correlationId,
        eventType: 'reservationResult',
        timestamp: new Date().toISOString(),
        eventData: { succeded: true, errorCode: null, errorDescription: null, data: { reservationId: randomUUID(), operation: 'create' } },
      });
      return { webhookId, body };
    },
    async send(baseUrl: string, delivery: { webhookId: string; body: string }): Promise<Response> {
      const at = new Date();
      return fetch(`${baseUrl}/api/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': delivery.webhookId,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signer.sign(delivery.webhookId, at, delivery.body),
        },
        body: delivery.body,
      });
    },
  };
}
