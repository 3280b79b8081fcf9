import os from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import config, { localDevOrigins } from './next.config.mjs';

describe('next.config', () => {
  it('lets the dev server answer at every address of this machine, IPv6 in brackets', () => {
    const origins = localDevOrigins(
      {
        lo: [
          { address: '127.0.0.1', family: 'IPv4', netmask: '255.0.0.0', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' },
          { address: '::1', family: 'IPv6', netmask: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', mac: '00:00:00:00:00:00', internal: true, cidr: '::1/128', scopeid: 0 },
        ],
        eth0: [
          { address: '192.168.1.20', family: 'IPv4', netmask: '255.255.255.0', mac: '02:42:ac:11:00:02', internal: false, cidr: '192.168.1.20/24' },
          { address: 'FD00::20', family: 'IPv6', netmask: 'ffff:ffff:ffff:ffff::', mac: '02:42:ac:11:00:02', internal: false, cidr: 'fd00::20/64', scopeid: 0 },
        ],
      },
      'Laundry-Box',
    );
    expect(origins).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', '[::1]', '192.168.1.20', '[fd00::20]', 'laundry-box']));
    // Host names only, as Next compares them: no scheme, no port.
    for (const origin of origins) expect(origin).not.toMatch(/:\/\/|:\d+$/);
  });

  it('uses this machine’s own addresses in the config Next loads', () => {
    const allowed = (config as { allowedDevOrigins?: string[] }).allowedDevOrigins ?? [];
    expect(allowed).toEqual(expect.arrayContaining(['127.0.0.1', '[::1]', os.hostname().toLowerCase()]));
    const first = Object.values(os.networkInterfaces()).flat().find((a) => a?.family === 'IPv4');
    if (first) expect(allowed).toContain(first.address);
  });

  it('type-checks every build except the demo’s (PORTAL_BUILD_TYPECHECK=0)', async () => {
    type Typescript = { typescript?: { ignoreBuildErrors?: boolean } };
    expect((config as Typescript).typescript?.ignoreBuildErrors).toBe(false);
    vi.stubEnv('PORTAL_BUILD_TYPECHECK', '0');
    vi.resetModules();
    try {
      const demo = (await import('./next.config.mjs')).default as Typescript;
      expect(demo.typescript?.ignoreBuildErrors).toBe(true);
    } finally {
      vi.unstubAllEnvs();
    }
  });
  it('bundles precompiled catalogues and use-intl\'s format-only runtime, not the ICU parser (issue 34, first-load JS)', () => {
    type Turbo = { turbopack?: { resolveAlias?: Record<string, string>; rules?: Record<string, unknown> } };
    const turbopack = (config as Turbo).turbopack;
    expect(turbopack?.resolveAlias?.['use-intl/format-message']).toMatch(/format-only/);
    // The catalogues go through next-intl's loader, which compiles each message.
    expect(JSON.stringify(turbopack?.rules?.['*.json'] ?? null)).toMatch(/catalogLoader.*"precompile":true.*\/messages\}/s);
  });
});
