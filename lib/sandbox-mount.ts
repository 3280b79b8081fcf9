import 'server-only';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { withApiHeaders } from '@/lib/api/headers';
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
  const forwarded = new Request(url, {
    method: request.method,
    headers: request.headers,
    body: hasBody ? await request.arrayBuffer() : undefined,
  });
  const sandbox = await getMountedSandbox();
  return sandbox.fetch(forwarded);
}
