import 'server-only';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { withApiHeaders } from '@/lib/api/headers';
import { readSessionUser, sessionTokenOf } from '@/lib/auth/session-token';
import { getSecrets } from '@/lib/secrets';
import { webhookUrl } from '@/lib/events/sandbox-webhook';
import { createSandbox, type Sandbox } from '@/sandbox';
import { existingSingleton, singletonPromise } from '@/lib/singleton';

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
 * A browser on another site must not drive the sandbox's control routes (reset, faults, shapes):
 * a state change there needs a JSON body — which a cross-site form or a "simple" fetch cannot
 * send without a preflight — and no foreign Origin.
 */
function crossSiteControl(request: Request, url: URL): boolean {
  if (request.method === 'GET' || request.method === 'HEAD' || !url.pathname.startsWith('/_sandbox/')) return false;
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
  const url = new URL(request.url);
  // Strip on the raw pathname so percent-encoded segments (%2F in apartment ids) survive.
  url.pathname = url.pathname.startsWith(SANDBOX_MOUNT) ? url.pathname.slice(SANDBOX_MOUNT.length) || '/' : url.pathname;
  if (crossSiteControl(request, url)) {
    return problem(403, 'Forbidden', "The sandbox's control routes take JSON from this site only.");
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const body = hasBody ? await request.arrayBuffer() : undefined;
  const refused = await controlRefusal(request, url, body);
  if (refused) return refused;
  const forwarded = new Request(url, { method: request.method, headers: request.headers, body });
  const sandbox = await getMountedSandbox();
  return sandbox.fetch(forwarded);
}

/**
 * Demo mode's control routes change what everyone sees (reset, faults) and where the sandbox
 * sends data (webhooks): issue 33 found scripts without a session registering any URL — residents'
 * booking outcomes went to the tester's listener — and setting faults. So a change needs a
 * signed-in admin, and a webhook may go only to this portal's own receiver (decision 021). Reads
 * (GET, fixtures) stay open: the demo's sign-in page and tests read the fixtures. The standalone
 * sandbox (`npm run sandbox`, tests) has no such guard; it is not this mount.
 */
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

async function controlRefusal(request: Request, url: URL, body: ArrayBuffer | undefined): Promise<Response | null> {
  if (request.method === 'GET' || request.method === 'HEAD' || !url.pathname.startsWith('/_sandbox/')) return null;
  const user = await sessionOfRequest(request).catch(() => null);
  if (!user) return problem(401, 'Unauthorized', "Sign in as an admin of the portal to change the demo sandbox (its control routes).");
  if (user.role !== 'admin') return problem(403, 'Forbidden', "Only an admin of the portal may change the demo sandbox (its control routes).");
  if (request.method === 'POST' && url.pathname.replace(/\/+$/, '') === '/_sandbox/webhooks') {
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
