import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { KeyedCall, SandboxContext } from '../context';
import { AFTER_ACCEPT_DEFAULT_DELAY_MS } from '../faults';
import { badRequest, checkValue, connectionReset, issues, json, problem, readJsonBody, sleep, statusTitle, UUID_RE } from '../http';
import { spellId, withExtras, writeTime } from '../shapes';
import { parseSlotTime } from '../slots';

// The writes of /v1: create and cancel are accepted (202 with a correlation id), queued in
// sandbox.requests, and processed by the background worker (processor.ts).

const reservationBody = z
  .object({
    userId: z.string().regex(UUID_RE, 'must be a UUID'),
    resourceId: z.string().regex(UUID_RE, 'must be a UUID'),
    startTime: z.string(),
    endTime: z.string(),
  })
  .strict();

async function accept(ctx: SandboxContext, method: string, approvalId: string, operation: 'create' | 'cancel', payload: unknown): Promise<Response> {
  const { faults } = ctx;
  const correlationId = randomUUID();
  const timestamp = ctx.now();
  await ctx.sql.query(
    `INSERT INTO sandbox.requests (correlation_id, operation, approval_id, payload, accepted_at) VALUES ($1, $2, $3, $4, $5)`,
    [correlationId, operation, approvalId, JSON.stringify(payload), timestamp],
  );
  ctx.kick();
  const shapes = faults.shapes;
  const body = withExtras({ correlationId: spellId(correlationId, shapes), timestamp: writeTime(timestamp, shapes, timestamp.toISOString()) }, shapes, `/v1/reservations/requests/${correlationId}`);
  const status = shapes.acceptStatus ?? 202;
  // afterAccept: the request is recorded and queued above; only the answer goes wrong.
  const spoil = faults.afterAccept(method);
  if (!spoil) return json(body, status);
  switch (spoil.mode) {
    case 'delay':
      await sleep(spoil.delayMs ?? AFTER_ACCEPT_DEFAULT_DELAY_MS);
      return json(body, status);
    case 'unreadable':
      return new Response(`{"correlationId":"${spellId(correlationId, shapes)}","timestamp":`, { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
    case 'status': {
      const failed = spoil.status ?? 500;
      return problem(failed, statusTitle(failed), 'The service failed to answer the request.');
    }
    case 'reset':
      return connectionReset(status);
  }
}

/** POST /v1/reservations */
export async function createReservation(ctx: SandboxContext, { request, key }: KeyedCall): Promise<Response> {
  const parsed = reservationBody.safeParse(await readJsonBody(request));
  if (!parsed.success) throw badRequest(issues(parsed.error));
  const start = parseSlotTime(parsed.data.startTime);
  const end = parseSlotTime(parsed.data.endTime);
  if (!start) throw badRequest('startTime must be a valid time in the form yyyy-mm-ddThh:mmZ.');
  if (!end) throw badRequest('endTime must be a valid time in the form yyyy-mm-ddThh:mmZ.');
  if (end <= start) throw badRequest('endTime must be after startTime.');
  return accept(ctx, request.method, key.approvalId, 'create', { ...parsed.data, userId: parsed.data.userId.toLowerCase(), resourceId: parsed.data.resourceId.toLowerCase() });
}

/** DELETE /v1/reservations/{reservationId} */
export async function cancelReservation(ctx: SandboxContext, { request, param, key }: KeyedCall): Promise<Response> {
  const reservationId = checkValue('reservationId', param('reservationId'));
  if (!UUID_RE.test(reservationId)) throw badRequest('reservationId must be a UUID.');
  return accept(ctx, request.method, key.approvalId, 'cancel', { reservationId: reservationId.toLowerCase() });
}
