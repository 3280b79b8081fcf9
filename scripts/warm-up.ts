// Requests the portal's main pages and the API routes they call once, so that `next dev` compiles
// them before a person opens them (issue 30: the first visit of each page took 19–113 s on a
// shared 2-core machine). Signs in as the demo manager when the sandbox's demo logins exist;
// otherwise only the public pages are warmed (the rest would be redirected to sign-in uncompiled).
import net from 'node:net';

// The demo manager's login (lib/auth/demo-seed.ts; README), kept literal: that module opens the database.
const DEMO_EMAIL = 'manager@example.com';
const DEMO_PASSWORD = 'portal-demo';

export interface WarmUpResult {
  seconds: number;
  signedIn: boolean;
  pages: { path: string; status: number; seconds: number }[];
}

class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair && at > 0) this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** Waits until the port accepts connections (Next listens before it has compiled anything), up to `timeoutMs`. */
export async function waitForListening(base: string, timeoutMs: number, alive: () => boolean = () => true): Promise<boolean> {
  const { hostname, port } = new URL(base);
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  const end = Date.now() + timeoutMs;
  while (Date.now() < end && alive()) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host, port: Number(port) }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return true;
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

export async function warmUp(base: string, options: { email?: string; password?: string } = {}): Promise<WarmUpResult> {
  const started = performance.now();
  const jar = new CookieJar();
  const pages: WarmUpResult['pages'] = [];
  const get = async (path: string, accept = 'text/html'): Promise<Response | null> => {
    const t = performance.now();
    try {
      const response = await fetch(`${base}${path}`, { headers: { cookie: jar.header(), accept }, redirect: 'manual', signal: AbortSignal.timeout(300_000) });
      jar.take(response);
      pages.push({ path, status: response.status, seconds: (performance.now() - t) / 1000 });
      return response;
    } catch {
      pages.push({ path, status: 0, seconds: (performance.now() - t) / 1000 });
      return null;
    }
  };
  const json = async <T>(path: string): Promise<T | null> => {
    const response = await get(path, 'application/json');
    return response?.ok ? ((await response.json().catch(() => null)) as T | null) : null;
  };

  await get('/sign-in');
  const csrf = await json<{ csrfToken: string }>('/api/auth/csrf');
  let signedIn = false;
  if (csrf) {
    const response = await fetch(`${base}/api/auth/callback/credentials`, {
      method: 'POST',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken: csrf.csrfToken, email: options.email ?? DEMO_EMAIL, password: options.password ?? DEMO_PASSWORD, json: 'true' }),
      redirect: 'manual',
    }).catch(() => null);
    if (response) {
      jar.take(response);
      const body = (await response.json().catch(() => ({}))) as { url?: string };
      signedIn = response.ok && typeof body.url === 'string' && !body.url.includes('error=');
    }
  }
  if (signedIn) {
    await get('/');
    await get('/residents');
    const systems = await json<{ systems?: { deviceId: string }[] }>('/api/systems');
    const deviceId = systems?.systems?.[0]?.deviceId;
    if (deviceId) {
      await get(`/systems/${deviceId}`);
      // The mirror may still be loading on a first start: the room list arrives within seconds.
      let resourceId: string | undefined;
      for (let i = 0; i < 20 && !resourceId; i += 1) {
        resourceId = (await json<{ resources?: { id: string }[] }>(`/api/systems/${deviceId}/overview`))?.resources?.[0]?.id;
        if (!resourceId) await new Promise((r) => setTimeout(r, 1000));
      }
      if (resourceId) {
        await get(`/systems/${deviceId}/resources/${resourceId}`);
        await get(`/api/systems/${deviceId}/resources/${resourceId}/week`, 'application/json');
      }
      const found = await json<{ apartments?: { deviceId: string; groupId: string | null }[] }>('/api/residents?q=a');
      const apartment = found?.apartments?.find((a) => a.groupId !== null);
      if (apartment?.groupId) {
        await get(`/systems/${apartment.deviceId}/apartments/${apartment.groupId}`);
        await get(`/api/systems/${apartment.deviceId}/apartments/${apartment.groupId}`, 'application/json');
        await get(`/api/systems/${apartment.deviceId}/apartments/${apartment.groupId}/next-free`, 'application/json');
      }
    }
  }
  return { seconds: (performance.now() - started) / 1000, signedIn, pages };
}
