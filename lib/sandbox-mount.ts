import 'server-only';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { withApiHeaders } from '@/lib/api/headers';
import { readSessionUser, sessionTokenOf } from '@/lib/auth/session-token';
import { getSecrets } from '@/lib/secrets';
import { webhookUrl } from '@/lib/events/sandbox-webhook';
import type { SandboxCredentials } from '@/lib/service/client-from-settings';
import { existingSingleton, singletonPromise } from '@/lib/singleton';
import type { SandboxDirectory } from '@/lib/systems/sandbox-directory';
import { createSandbox, type Sandbox, type SandboxFixtures } from '@/sandbox';

/** Where the sandbox is mounted in the portal. */
export const SANDBOX_MOUNT = '/sandbox';

// One sandbox per process, kept on globalThis so that Next's dev reloads reuse it (and its workers).
/**
 * The mounted sandbox, created on the portal's database handle and started once: the demo data is
 * seeded on first use only (it persists under DATA_DIR), so later starts are quick.
 */
export function getMountedSandbox(): Promise<Sandbox> {
  return singletonPromise('mounted-sandbox', async () => {
    const handle = await getDb();
    // No preset/seed given: demo data (seed 1) on the first start, then whatever is stored, so a
    // POST /sandbox/_sandbox/reset survives restarts.
    const sandbox = createSandbox({ sql: handle.sql });
    await sandbox.start();
    return sandbox;
  });
}

/** Stops the mounted sandbox's workers if this process mounted it (shutdown). */
export async function stopMountedSandbox(): Promise<void> {
  await existingSingleton<Promise<Sandbox>>('mounted-sandbox')?.then((sandbox) => sandbox.stop());
}

function problem(status: number, title: string, detail: string): Response {
  return new Response(JSON.stringify({ type: 'about:blank', title, status, detail }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  });
}

/**
 * The path as the sandbox will route it: its segments, each percent-decoded, empty ones (`//`)
 * dropped — the sandbox's own reading (sandbox/sandbox.ts). `new URL` has already resolved `.` and
 * `..` (also `%2e`). The guard decides on this, never on the raw text: issue 47 sent
 * `/sandbox/%5Fsandbox/faults`, which the raw check let through and the sandbox routed as a
 * control route. Null when a segment is not valid percent-encoding (the sandbox's 400).
 */
function sandboxSegments(pathname: string): string[] | null {
  try {
    return pathname.split('/').filter((part) => part !== '').map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
}

/** The segments below the mount: the first, `sandbox` once decoded, taken off. */
function belowMount(segments: string[]): string[] {
  return segments[0] === SANDBOX_MOUNT.slice(1) ? segments.slice(1) : segments;
}

/**
 * Whether a path is one of the control routes (`/_sandbox/*`), in any case and with a first segment
 * that merely starts so (`_sandbox%2Ffaults`): the guard errs towards guarding.
 */
function isControl(segments: readonly string[]): boolean {
  return segments[0]?.toLowerCase().startsWith('_sandbox') === true;
}

/** The one URL the sandbox gets: the canonical segments, each encoded again (a `/` inside one stays `%2F`). */
function canonicalUrl(request: Request, segments: readonly string[]): URL {
  const url = new URL(request.url);
  url.pathname = `/${segments.map((part) => encodeURIComponent(part)).join('/')}`;
  return url;
}

/**
 * A browser on another site must not drive the sandbox's control routes (reset, faults, shapes):
 * a state change there needs a JSON body — which a cross-site form or a "simple" fetch cannot
 * send without a preflight — and no foreign Origin.
 */
function crossSiteControl(request: Request, segments: readonly string[]): boolean {
  if (request.method === 'GET' || request.method === 'HEAD' || !isControl(segments)) return false;
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== new URL(request.url).origin) return true;
  if (request.headers.get('sec-fetch-site') === 'cross-site') return true;
  const type = request.headers.get('content-type');
  return type !== null && !/^application\/json\b/i.test(type);
}

/**
 * Forwards a request under /sandbox to the sandbox with the prefix stripped. 404 unless the
 * sandbox is in use (development with no service, or DEMO_MODE in production). Every answer
 * carries the portal's API security headers (CSP included).
 */
export async function handleSandboxRequest(request: Request): Promise<Response> {
  return withApiHeaders(await forwardToSandbox(request));
}

async function forwardToSandbox(request: Request): Promise<Response> {
  if (!env.demoMode) {
    return problem(404, 'Not Found', env.serviceMode === 'remote' ? 'The sandbox is not mounted: a real service is configured.' : 'The sandbox is not mounted: it runs in production only with DEMO_MODE=1.');
  }
  const decoded = sandboxSegments(new URL(request.url).pathname);
  if (decoded === null) return problem(400, 'Bad Request', 'The path is not valid percent-encoding.');
  const segments = belowMount(decoded);
  if (crossSiteControl(request, segments)) {
    return problem(403, 'Forbidden', "The sandbox's control routes take JSON from this site only.");
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const body = hasBody ? await request.arrayBuffer() : undefined;
  const refused = await controlRefusal(request, segments, body);
  if (refused) return refused;
  const sandbox = await getMountedSandbox();
  if (isFixtures(request, segments)) return Response.json(withoutSecrets(await sandbox.fixtures()));
  return sandbox.fetch(new Request(canonicalUrl(request, segments), { method: request.method, headers: request.headers, body }));
}

/** `GET /_sandbox/fixtures` (HEAD too), as the sandbox routes it. */
function isFixtures(request: Request, segments: readonly string[]): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && segments.length === 2 && isControl(segments) && segments[1]?.toLowerCase() === 'fixtures';
}

/**
 * What the demo's fixtures show a signed-in admin: everything but the client secret, with which
 * anyone could take tokens and API keys (issue 47). The portal reads its own credentials in-process
 * (mountedSandboxCredentials).
 */
function withoutSecrets(fixtures: SandboxFixtures): Omit<SandboxFixtures, 'clientSecret'> {
  const { clientSecret: _secret, ...shown } = fixtures;
  return shown;
}

/**
 * Who sent this request, read from its own Cookie header (not next/headers): the module is also
 * loaded by plain Node processes (scripts, lib/shutdown.test.ts), where Next's request scope and
 * next/navigation do not exist.
 */
async function sessionOfRequest(request: Request) {
  const cookies = (request.headers.get('cookie') ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.includes('='))
    .map((part) => {
      const at = part.indexOf('=');
      return { name: part.slice(0, at), value: decodeURIComponent(part.slice(at + 1)) };
    });
  const [{ authSecret }, { db }] = await Promise.all([getSecrets(), getDb()]);
  return readSessionUser(db, authSecret, sessionTokenOf(cookies, env.PORTAL_URL.startsWith('https://')));
}

/**
 * Demo mode's control routes change what everyone sees (reset, faults) and where the sandbox
 * sends data (webhooks): issue 33 found scripts without a session registering any URL — residents'
 * booking outcomes went to the tester's listener — and setting faults. So a change needs a
 * signed-in admin, and a webhook may go only to this portal's own receiver (decision 021); so do
 * the fixtures, which name every resident and approval (issue 47, decision 037). The other reads
 * (faults, stats, rules) stay open. The standalone sandbox (`npm run sandbox`, tests) has no such
 * guard; it is not this mount.
 */
async function controlRefusal(request: Request, segments: readonly string[], body: ArrayBuffer | undefined): Promise<Response | null> {
  if (!isControl(segments)) return null;
  const read = request.method === 'GET' || request.method === 'HEAD';
  if (read && !isFixtures(request, segments)) return null;
  const user = await sessionOfRequest(request).catch(() => null);
  const what = read ? 'read the demo sandbox’s fixtures' : 'change the demo sandbox (its control routes)';
  if (!user) return problem(401, 'Unauthorized', `Sign in as an admin of the portal to ${what}.`);
  if (user.role !== 'admin') return problem(403, 'Forbidden', `Only an admin of the portal may ${what}.`);
  if (request.method === 'POST' && segments.length === 2 && segments[1]?.toLowerCase() === 'webhooks') {
    let target: unknown;
    try {
      target = (JSON.parse(new TextDecoder().decode(body ?? new ArrayBuffer(0))) as { url?: unknown }).url;
    } catch {
      target = undefined;
    }
    if (target !== webhookUrl()) {
      return problem(400, 'Bad Request', `In demo mode the sandbox delivers webhooks only to the portal's own receiver, ${webhookUrl()}.`);
    }
  }
  return null;
}

/** The mounted sandbox's client credentials, for the portal's own service client: in-process, never over the public route. */
export async function mountedSandboxCredentials(): Promise<SandboxCredentials> {
  const { tokenPath, clientId, clientSecret, scope } = await (await getMountedSandbox()).fixtures();
  return { tokenPath, clientId, clientSecret, scope };
}

/** The mounted sandbox's approvals and systems (the demo connection, the systems' names): in-process. */
export async function mountedSandboxDirectory(): Promise<SandboxDirectory> {
  const { approvals, systems } = await (await getMountedSandbox()).fixtures();
  return { approvals, systems };
}

/**
 * A fetch for the portal's own calls to its mounted sandbox (the webhook registration at start):
 * in-process, past the control routes' guard, which is for requests from outside. Takes addresses
 * under sandboxBaseUrl() (PORTAL_URL/sandbox).
 */
export const mountedSandboxFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const url = new URL(request.url);
  url.pathname = url.pathname.startsWith(SANDBOX_MOUNT) ? url.pathname.slice(SANDBOX_MOUNT.length) || '/' : url.pathname;
  const sandbox = await getMountedSandbox();
  return sandbox.fetch(new Request(url, { method: request.method, headers: request.headers, body: request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer() }));
};
