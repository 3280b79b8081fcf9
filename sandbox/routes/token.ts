import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';
import { hashKey, issuer } from '../auth';
import type { Call, SandboxContext } from '../context';
import { b64url } from '../encoding';
import { checkValue, HttpProblem, json, notFound, readText } from '../http';
import { spellId } from '../shapes';

// The credentials an integrator obtains: an OAuth 2.0 client-credentials token, and an API key
// for an approval (which needs the token).

/** Constant-time string comparison; lengths compared in bytes (timingSafeEqual throws on unequal lengths). */
function sameBytes(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** POST /{tenant}/oauth2/v2.0/token (any method is routed here; errors in OAuth's own form). */
export async function issueToken(ctx: SandboxContext, { request, param }: Call): Promise<Response> {
  const c = ctx.credentials;
  const ttl = ctx.tokenTtlSeconds;
  const tenant = param('tenant');
  const oauthError = (status: number, error: string, description: string) =>
    json({ error, error_description: description }, status, status === 401 ? { 'www-authenticate': 'Basic realm="sandbox"' } : {});
  if (request.method !== 'POST') return oauthError(405, 'invalid_request', 'Use POST.');
  if (tenant !== c.tenantId) return oauthError(400, 'invalid_request', `Tenant '${tenant}' not found.`);
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
    return oauthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
  }
  const form = new URLSearchParams(await readText(request));
  let clientId = form.get('client_id');
  let clientSecret = form.get('client_secret');
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '');
  if (basic) {
    const [id, ...rest] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
    try {
      clientId = decodeURIComponent(id ?? '');
      clientSecret = decodeURIComponent(rest.join(':'));
    } catch {
      return oauthError(400, 'invalid_request', 'The Basic credentials are not valid form-encoding.');
    }
  }
  const grant = form.get('grant_type');
  if (!grant) return oauthError(400, 'invalid_request', 'grant_type is required.');
  if (grant !== 'client_credentials') return oauthError(400, 'unsupported_grant_type', `grant_type '${grant}' is not supported; use client_credentials.`);
  if (!clientId || !clientSecret) return oauthError(400, 'invalid_request', 'client_id and client_secret are required.');
  const idOk = sameBytes(clientId, c.clientId);
  const secretOk = sameBytes(clientSecret, c.clientSecret);
  if (!idOk || !secretOk) return oauthError(401, 'invalid_client', 'Client authentication failed.');
  const scope = form.get('scope');
  if (!scope) return oauthError(400, 'invalid_request', 'scope is required.');
  if (scope !== `api://${c.audience}/.default`) return oauthError(400, 'invalid_scope', `The scope must be api://${c.audience}/.default.`);
  const issuedAt = Math.floor(ctx.now().getTime() / 1000);
  const accessToken = await new SignJWT({ tid: c.tenantId, azp: c.clientId, roles: ['Reservations.ReadWrite'] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(issuer(c))
    .setAudience(`api://${c.audience}`)
    .setSubject(c.clientId)
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt)
    .setExpirationTime(issuedAt + ttl)
    .setJti(randomUUID())
    .sign(c.signingKey);
  return json({ access_token: accessToken, token_type: 'Bearer', expires_in: ttl, ext_expires_in: ttl });
}

/** GET /v1/apikey/generate/{approvalId}: bearer only (any method is routed here). */
export async function generateApiKey(ctx: SandboxContext, { request, param }: Call): Promise<Response> {
  if (request.method !== 'GET') throw new HttpProblem(405, 'Method Not Allowed', 'Use GET.', { allow: 'GET' });
  const approvalId = checkValue('approvalId', param('approvalId'));
  const { rows } = await ctx.sql.query<{ device_ids: string[] }>(`SELECT device_ids::text[] AS device_ids FROM sandbox.approvals WHERE id = $1`, [approvalId]);
  const approval = rows[0];
  if (!approval) throw notFound('No such approval.');
  const apiKey = `sbx_${b64url(randomBytes(32))}`;
  await ctx.sql.query(`INSERT INTO sandbox.api_keys (key_hash, approval_id, created_at) VALUES ($1, $2, $3)`, [hashKey(apiKey), approvalId, ctx.now()]);
  return json({ apiKey, deviceIds: approval.device_ids.map((d) => spellId(d, ctx.faults.shapes)) });
}
