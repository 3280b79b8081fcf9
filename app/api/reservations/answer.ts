import 'server-only';
import { errorResponse, reasonOfKey } from '@/lib/errors/api-error';
import { localeOfRequest } from '@/lib/api/route';
import { renderMessage } from '@/lib/i18n/server';
import type { RequestAnswer } from '@/lib/reservations';

/**
 * 202 { request }, or the first answer's error again for a repeated Idempotency-Key — in the
 * language of whoever asks now when it was kept as a Message.
 */
export async function answerResponse(answer: RequestAnswer, request: Request): Promise<Response> {
  if ('request' in answer) return Response.json({ request: answer.request }, { status: 202, headers: { 'Cache-Control': 'no-store' } });
  const { code, text } = answer.error;
  const message = text ? await renderMessage(await localeOfRequest(request), text).catch(() => answer.error.message) : answer.error.message;
  return errorResponse(code, message, { reason: answer.error.reason ?? (text ? reasonOfKey(text.key) : code) });
}
