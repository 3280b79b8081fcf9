import 'server-only';
import { errorResponse } from '@/lib/api/errors';
import type { RequestAnswer } from '@/lib/reservations';

/** 202 { request }, or the first answer's error again for a repeated Idempotency-Key. */
export function answerResponse(answer: RequestAnswer): Response {
  if ('request' in answer) return Response.json({ request: answer.request }, { status: 202, headers: { 'Cache-Control': 'no-store' } });
  return errorResponse(answer.error.code, answer.error.message);
}
