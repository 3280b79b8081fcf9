import 'server-only';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Database } from '@/lib/db';
import { log } from '@/lib/log';
import { claimDueMail, markAttemptFailed, markDelivered, mailLocaleOf, type OutboxRow } from './outbox';
import { addressOf, renderMail, type RenderedMail } from './render';

/**
 * Sends the outbox. Each pass claims due rows under a lease (one statement, SKIP LOCKED: several
 * instances never claim one row together), renders them and sends them over SMTP with a few at a
 * time, or — without SMTP_URL — only composes them and keeps the message ('captured').
 */

export interface MailWorkerOptions {
  db: Database;
  /** smtp:// or smtps:// URL; undefined for capture mode. */
  smtpUrl?: string;
  from: string;
  /** The cap of the exponential backoff between attempts. */
  retryMaxSeconds: number;
  /** A temporary failure fails for good only after this many attempts … */
  maxAttempts?: number;
  /** … and once the message is this old (a long SMTP outage with a small backoff cap must not use them up). */
  giveUpAfterMs?: number;
  /** First backoff step (doubled each attempt). */
  retryBaseSeconds?: number;
  leaseSeconds?: number;
  batch?: number;
  concurrency?: number;
  pollMs?: number;
  /** SMTP connection, greeting and socket timeouts. */
  timeoutMs?: number;
}

/** The URL with its password (and any query string) hidden: what may be logged or stored. */
export function redactSmtpUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    u.search = '';
    return u.toString();
  } catch {
    return '[invalid SMTP_URL]';
  }
}

/** An error's text with the SMTP URL's secrets removed, short enough for a table cell. */
export function errorText(error: unknown, smtpUrl?: string): string {
  const e = error as { message?: unknown; responseCode?: unknown; code?: unknown };
  let text = typeof e?.message === 'string' ? e.message : String(error);
  if (smtpUrl) {
    text = text.split(smtpUrl).join(redactSmtpUrl(smtpUrl));
    try {
      const { password } = new URL(smtpUrl);
      if (password) {
        text = text.split(password).join('***');
        const decoded = decodeURIComponent(password);
        if (decoded) text = text.split(decoded).join('***');
      }
    } catch {
      // not a URL: nothing more to hide
    }
  }
  return text.replace(/\s+/g, ' ').slice(0, 500);
}

/** A definite refusal (SMTP 5xx): sending again will not help. Everything else is temporary. */
export function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: unknown })?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** Seconds until the next attempt after `attempts` attempts: exponential, jittered (50–100 %), capped. */
export function backoffSeconds(attempts: number, baseSeconds: number, capSeconds: number, random = Math.random): number {
  const exponential = Math.min(capSeconds, baseSeconds * 2 ** Math.max(0, attempts - 1));
  return Math.max(1, Math.round(exponential * (0.5 + random() * 0.5)));
}

export function renderRow(row: OutboxRow, from: string): Promise<RenderedMail> {
  return renderMail({
    kind: row.kind,
    locale: mailLocaleOf(row.locale),
    reservationId: row.reservationId,
    facts: row.facts,
    recipient: row.recipient,
    recipientName: row.recipientName,
    from,
    createdAt: row.createdAt,
  });
}

/** The whole message (RFC 5322) as sent: text and HTML, and the calendar file both inline and attached. */
export async function composeRaw(row: OutboxRow, from: string): Promise<{ rendered: RenderedMail; raw: string }> {
  const rendered = await renderRow(row, from);
  const to = row.recipient ? (row.recipientName ? { name: row.recipientName, address: row.recipient } : row.recipient) : undefined;
  const composer = new MailComposer({
    from,
    to,
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    messageId: rendered.messageId,
    date: row.createdAt,
    icalEvent: { method: rendered.icsMethod, filename: rendered.icsMethod === 'CANCEL' ? 'cancel.ics' : 'booking.ics', content: rendered.ics },
    headers: { 'Auto-Submitted': 'auto-generated' },
  });
  const buffer = await new Promise<Buffer>((resolve, reject) => composer.compile().build((error, message) => (error ? reject(error) : resolve(message))));
  return { rendered, raw: buffer.toString('utf8') };
}

export class MailWorker {
  private readonly transport: nodemailer.Transporter | null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  readonly mode: 'smtp' | 'capture';

  constructor(private readonly options: MailWorkerOptions) {
    const timeout = options.timeoutMs ?? 10_000;
    this.mode = options.smtpUrl ? 'smtp' : 'capture';
    this.transport = options.smtpUrl
      ? nodemailer.createTransport({
          url: options.smtpUrl,
          connectionTimeout: timeout,
          greetingTimeout: timeout,
          socketTimeout: timeout,
          dnsTimeout: timeout,
          logger: false,
        } as Parameters<typeof nodemailer.createTransport>[0])
      : null;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.kick();
  }

  /** A pass now (or right after the one running). */
  kick = (): void => {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.runUntilIdle()
      .catch((error: unknown) => log.warn('mail worker pass failed', { error: errorText(error, this.options.smtpUrl) }))
      .finally(() => {
        this.running = null;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.kick();
          return;
        }
        this.timer = setTimeout(this.kick, this.options.pollMs ?? 5_000);
        this.timer.unref();
      });
  };

  /** Stops claiming; a send in flight finishes (or its lease expires and another worker takes it). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    this.transport?.close();
  }

  private async runUntilIdle(): Promise<void> {
    while (!this.stopped) {
      if ((await this.runOnce()) === 0) return;
    }
  }

  /** One claim and its sends; returns how many rows it claimed. */
  async runOnce(): Promise<number> {
    const { db } = this.options;
    const rows = await claimDueMail(db, this.options.batch ?? 20, this.options.leaseSeconds ?? 120);
    const queue = [...rows];
    const lanes = Array.from({ length: Math.min(this.options.concurrency ?? 4, queue.length) }, async () => {
      for (let row = queue.shift(); row; row = queue.shift()) await this.deliver(row);
    });
    await Promise.all(lanes);
    return rows.length;
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const { db, from, smtpUrl } = this.options;
    let composed: { rendered: RenderedMail; raw: string };
    try {
      composed = await composeRaw(row, from);
    } catch (error) {
      await markAttemptFailed(db, row, { error: errorText(error), final: true, delaySeconds: 0 });
      log.error('mail could not be rendered', { mailId: row.id, error: errorText(error) });
      return;
    }
    const { rendered, raw } = composed;
    if (!this.transport) {
      await markDelivered(db, row, { status: 'captured', subject: rendered.subject, messageId: rendered.messageId, raw });
      return;
    }
    try {
      if (!row.recipient) throw Object.assign(new Error('no recipient'), { responseCode: 550 });
      await this.transport.sendMail({ envelope: { from: addressOf(from), to: [row.recipient] }, raw });
    } catch (error) {
      const exhausted = row.attempts >= (this.options.maxAttempts ?? 12) && Date.now() - row.createdAt.getTime() >= (this.options.giveUpAfterMs ?? 24 * 3_600_000);
      const final = isPermanent(error) || exhausted;
      const delaySeconds = backoffSeconds(row.attempts, this.options.retryBaseSeconds ?? 5, this.options.retryMaxSeconds);
      const text = errorText(error, smtpUrl);
      await markAttemptFailed(db, row, { error: text, final, delaySeconds });
      log.warn(final ? 'mail failed' : 'mail will be retried', { mailId: row.id, attempts: row.attempts, error: text, retryInS: final ? undefined : delaySeconds });
      return;
    }
    if (!(await markDelivered(db, row, { status: 'sent', subject: rendered.subject, messageId: rendered.messageId, raw }))) {
      // Sent, but the lease was lost meanwhile (the send outlived it): another worker may send it again.
      log.warn('mail sent after its lease expired', { mailId: row.id });
    }
  }
}
