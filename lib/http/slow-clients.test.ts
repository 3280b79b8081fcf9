import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { HEADERS_TIMEOUT_MS, installSlowClientTimeouts, REQUEST_TIMEOUT_MS } from './slow-clients';

describe('slow-client timeouts (issue 33)', () => {
  it("sets a server's header and request timeouts at its first connection, as next start's server gets them", async () => {
    installSlowClientTimeouts();
    const server = http.createServer((_req, res) => res.end('ok'));
    expect(server.headersTimeout).toBe(60_000);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    expect(await answer.text()).toBe('ok');
    expect(server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('cuts a client that trickles its headers once the timeout has passed', async () => {
    installSlowClientTimeouts();
    // A short check interval and our values scaled down, so the test takes a second, not 50.
    const server = http.createServer({ connectionsCheckingInterval: 100 }, (_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    // Our timeouts are set now (first connection); shorten them for the test.
    server.headersTimeout = 300;
    server.requestTimeout = 600;
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    const closedAfter = await new Promise<number>((resolve) => {
      const started = Date.now();
      let received = '';
      socket.on('data', (d) => (received += String(d)));
      socket.once('close', () => resolve(received.includes('408') ? Date.now() - started : -1));
    });
    expect(closedAfter).toBeGreaterThan(0);
    expect(closedAfter).toBeLessThan(3_000);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
