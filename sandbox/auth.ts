import { createHash } from 'node:crypto';
import { jwtVerify } from 'jose';
import type { ApiKeyScope, Credentials, SandboxContext } from './context';
import { badRequest, checkValue, HttpProblem, UUID_RE } from './http';

// The two credentials of /v1: a bearer token (issued by routes/token.ts) and an API key.

export const issuer = (c: Credentials) => `https://login.sandbox.invalid/${c.tenantId}/v2.0`;

/** API keys are stored as their SHA-256 only. */
export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export async function requireToken(ctx: SandboxContext, request: Request): Promise<void> {
  const c = ctx.credentials;
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  const unauthorized = (detail: string) =>
    new HttpProblem(401, 'Unauthorized', detail, { 'www-authenticate': 'Bearer error="invalid_token"' });
  if (!match) throw unauthorized('A bearer access token is required.');
  try {
    await jwtVerify(match[1]!, c.signingKey, {
      algorithms: ['HS256'],
      audience: `api://${c.audience}`,
      issuer: issuer(c),
      currentDate: ctx.now(),
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_JWT_EXPIRED') throw unauthorized('The access token has expired.');
    if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') throw unauthorized('The access token is not valid for this API.');
    throw unauthorized('The access token is invalid.');
  }
}

/** Devices covered by the request's API key; 403 when the key is missing or unknown. */
export async function requireKey(ctx: SandboxContext, request: Request): Promise<ApiKeyScope> {
  const key = request.headers.get('x-api-key');
  if (!key) throw new HttpProblem(403, 'Forbidden', 'An x-api-key header is required.');
  const { rows } = await ctx.sql.query<{ approval_id: string; device_ids: string[] }>(
    `SELECT k.approval_id, a.device_ids::text[] AS device_ids FROM sandbox.api_keys k
     JOIN sandbox.approvals a ON a.id = k.approval_id WHERE k.key_hash = $1`,
    [hashKey(key)],
  );
  const row = rows[0];
  if (!row) throw new HttpProblem(403, 'Forbidden', 'The API key is not valid.');
  return { approvalId: row.approval_id, deviceIds: row.device_ids };
}

export function requireDevice(deviceIds: string[], deviceId: string): void {
  checkValue('deviceId', deviceId);
  if (!UUID_RE.test(deviceId)) throw badRequest('deviceId must be a UUID.');
  if (!deviceIds.includes(deviceId.toLowerCase())) {
    throw new HttpProblem(403, 'Forbidden', 'The API key does not cover this system.');
  }
}
