// Standalone sandbox: npm run sandbox -- --port 4010 [--preset demo|large|tiny|portfolio] [--systems 1000] [--seed 1] [--latency 30] [--schedule-time-zone Europe/Stockholm]
import { createServer } from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { nodeListener } from './node';
import { createSandbox } from './sandbox';
import { PORTFOLIO_SYSTEMS_MAX, PRESETS, type Preset } from './seed';
import { openSandboxSql } from './sql';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    preset: { type: 'string' },
    seed: { type: 'string' },
    systems: { type: 'string' },
    latency: { type: 'string' },
    'schedule-time-zone': { type: 'string' },
    'data-dir': { type: 'string' },
  },
});

function fail(message: string): never {
  console.error(`sandbox: ${message}`);
  process.exit(2);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65_535) fail(`--port must be a port number, got '${values.port}'`);
if (values.preset !== undefined && !PRESETS.includes(values.preset as Preset)) fail(`--preset must be one of ${PRESETS.join(', ')}`);
const seed = values.seed === undefined ? undefined : Number(values.seed);
if (seed !== undefined && (!Number.isInteger(seed) || seed < 0)) fail('--seed must be a non-negative integer');
const systems = values.systems === undefined ? undefined : Number(values.systems);
if (systems !== undefined && (!Number.isInteger(systems) || systems < 1 || systems > PORTFOLIO_SYSTEMS_MAX)) fail(`--systems must be a whole number from 1 to ${PORTFOLIO_SYSTEMS_MAX}`);
if (systems !== undefined && values.preset !== 'portfolio') fail('--systems is the size of --preset portfolio');
const latency = values.latency === undefined ? undefined : Number(values.latency);
if (latency !== undefined && (!Number.isInteger(latency) || latency < 0)) fail('--latency must be milliseconds');
const scheduleTimeZone = values['schedule-time-zone'];
if (scheduleTimeZone !== undefined) {
  try {
    new Intl.DateTimeFormat('en', { timeZone: scheduleTimeZone });
  } catch {
    fail(`--schedule-time-zone must be an IANA time zone such as Europe/Stockholm, got '${scheduleTimeZone}'`);
  }
}

const databaseUrl = process.env.DATABASE_URL || undefined;
const dataDir = values['data-dir'] ?? path.resolve('.data', `sandbox-${port}`);
const db = await openSandboxSql(databaseUrl ? { url: databaseUrl } : { dataDir });
// Without --preset/--seed the stored data is kept (demo, seed 1, on first start).
const sandbox = createSandbox({ sql: db.sql, preset: values.preset as Preset | undefined, seed, systems, scheduleTimeZone });
const started = Date.now();
await sandbox.start();
if (latency !== undefined) {
  await sandbox.fetch(new Request('http://sandbox/_sandbox/faults', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latencyMs: latency }) }));
}

const server = createServer(nodeListener((request) => sandbox.fetch(request), `localhost:${port}`));
server.listen(port, values.host, () => {
  console.log(`sandbox (${db.kind}, preset ${values.preset ?? 'as stored'}, seed ${seed ?? 'as stored'}) ready in ${Date.now() - started} ms on http://${values.host}:${port}`);
  console.log(`fixtures: curl -s http://${values.host}:${port}/_sandbox/fixtures`);
});

async function shutdown() {
  server.close();
  await sandbox.stop();
  await db.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
