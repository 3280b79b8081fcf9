/**
 * The portal's layers, lowest first (docs/architecture-layers.md says why each sits where it does).
 * A module may import its own layer and the layers below it, never one above: eslint.config.mjs
 * turns this list into `import-x/no-restricted-paths` zones, and `import-x/no-cycle` forbids
 * circles inside a layer. Paths are relative to the repository root; a folder stands for
 * everything in it. Tests, scripts, e2e/ and bench/ sit above everything (they may import anything).
 */
export const LAYERS = [
  {
    name: 'kernel',
    why: 'pure helpers and vocabularies: no settings, no I/O, no state of their own',
    paths: [
      'shared',
      'lib/singleton.ts',
      'lib/cache.ts',
      'lib/same-type.ts',
      'lib/within.ts',
      'lib/crypto.ts',
      'lib/i18n',
      'lib/http',
      'lib/schedule',
      'lib/booking-rules',
      'lib/calendar',
      'lib/client',
      'lib/security',
    ],
  },
  {
    name: 'platform',
    why: 'settings, logging, metrics and the request context every layer above may use',
    paths: ['lib/env.ts', 'lib/log.ts', 'lib/observability', 'lib/startup-status.ts', 'lib/secrets.ts'],
  },
  {
    name: 'infrastructure',
    why: 'the database (schema, client, migrations) and the upstream client; they know no domain',
    paths: ['lib/db', 'lib/service', 'sandbox'],
  },
  {
    name: 'errors',
    why: 'the one error map: ApiError, its codes, how any thrown value becomes an answer',
    paths: ['lib/errors'],
  },
  {
    name: 'records',
    why: 'the stores that own the tables: accounts, events, systems, the mirror',
    paths: ['lib/auth', 'lib/events', 'lib/systems', 'lib/mirror'],
  },
  {
    name: 'operations',
    why: 'what managers and admins do: book, cancel, close rooms, mail residents, administer',
    paths: ['lib/reservations', 'lib/closures', 'lib/mail', 'lib/residents', 'lib/admin'],
  },
  {
    name: 'views',
    why: 'what pages, exports and feeds read, assembled from records and operations',
    paths: ['lib/views', 'lib/reports', 'lib/exports', 'lib/feeds', 'lib/displays', 'lib/personal-data'],
  },
  {
    name: 'edge',
    why: 'the request edge (sessions, route wrapper, bodies) and the process (wiring, start, stop)',
    paths: ['lib/api', 'lib/wiring.ts', 'lib/startup.ts', 'lib/shutdown.ts', 'lib/health.ts', 'lib/readiness.ts', 'lib/sandbox-mount.ts'],
  },
  {
    name: 'ui',
    why: 'React components (browser-safe imports only, see eslint.config.mjs)',
    paths: ['components'],
  },
  {
    name: 'entry',
    why: "Next's entry points: pages, route handlers, next-intl's request config, instrumentation, proxy",
    paths: ['app', 'i18n', 'instrumentation.ts', 'proxy.ts'],
  },
];

/** The layer index of a repository-relative path (undefined: not in a layer, e.g. tests/, scripts/). */
export function layerOf(file) {
  let best;
  let bestLength = -1;
  LAYERS.forEach((layer, index) => {
    for (const path of layer.paths) {
      const hit = file === path || file.startsWith(`${path}/`) || file === `${path}.ts` || file === `${path}.tsx`;
      if (hit && path.length > bestLength) {
        best = index;
        bestLength = path.length;
      }
    }
  });
  return best;
}
