import 'server-only';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { createSandbox, type Sandbox } from '@/sandbox';
import { singletonPromise } from '@/lib/singleton';

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

/** Forwards a request under /sandbox to the sandbox with the prefix stripped; 404 with a real service. */
export async function handleSandboxRequest(request: Request): Promise<Response> {
  if (env.serviceMode !== 'sandbox') {
    return new Response(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'The sandbox is not mounted: a real service is configured.' }), {
      status: 404,
      headers: { 'content-type': 'application/problem+json' },
    });
  }
  const url = new URL(request.url);
  // Strip on the raw pathname so percent-encoded segments (%2F in apartment ids) survive.
  url.pathname = url.pathname.startsWith(SANDBOX_MOUNT) ? url.pathname.slice(SANDBOX_MOUNT.length) || '/' : url.pathname;
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const forwarded = new Request(url, {
    method: request.method,
    headers: request.headers,
    body: hasBody ? await request.arrayBuffer() : undefined,
  });
  const sandbox = await getMountedSandbox();
  return sandbox.fetch(forwarded);
}
