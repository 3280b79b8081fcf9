// A portal-like process for lib/shutdown.test.ts: an HTTP server with one SSE route, Next's own
// SIGTERM/SIGINT handling as start-server.js does it (server.close(), then process.exit(143/130)),
// and the portal's installShutdown() registered after it, as instrumentation does.
import http from 'node:http';
import { Readable } from 'node:stream';
import { InProcessEventBus } from '@/lib/events/bus';
import { createEventStream, SSE_HEADERS } from '@/lib/events/sse';
import { installShutdown } from '@/lib/shutdown';

const bus = new InProcessEventBus();
const server = http.createServer((req, res) => {
  const controller = new AbortController();
  req.on('close', () => controller.abort());
  const stream = createEventStream({ bus, deviceIds: 'all', signal: controller.signal, loadAfter: () => Promise.resolve([]), latestId: () => Promise.resolve(0) });
  res.writeHead(200, SSE_HEADERS);
  Readable.fromWeb(stream as Parameters<typeof Readable.fromWeb>[0]).pipe(res);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(signal === 'SIGTERM' ? 143 : 130));
  });
}
installShutdown();
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
