import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { clientAddress, isTrustedPeer, parseTrustedProxies, PEER_HEADER, type TrustedProxies } from './client-address';
import { installPeerAddressHeader } from './peer-address';

const trust = (value: string): TrustedProxies => {
  const parsed = parseTrustedProxies(value);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
};
const headers = (h: Record<string, string>) => (name: string) => h[name];

describe('the client address', () => {
  it('trusts the peer’s forwarded headers only when TRUSTED_PROXIES names it', () => {
    expect(isTrustedPeer(headers({ [PEER_HEADER]: '10.0.0.2' }), trust(''))).toBe(false);
    expect(isTrustedPeer(headers({ [PEER_HEADER]: '10.0.0.2' }), trust('1'))).toBe(true);
    expect(isTrustedPeer(headers({ [PEER_HEADER]: '::ffff:10.0.0.2' }), trust('10.0.0.0/8'))).toBe(true);
    expect(isTrustedPeer(headers({ [PEER_HEADER]: '203.0.113.9' }), trust('10.0.0.0/8'))).toBe(false);
    expect(isTrustedPeer(headers({}), trust('10.0.0.0/8'))).toBe(false);
  });

  it('is the socket’s when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress(headers({ [PEER_HEADER]: '203.0.113.7', 'x-forwarded-for': '1.2.3.4' }), trust(''))).toBe('203.0.113.7');
    expect(clientAddress(headers({ [PEER_HEADER]: '::ffff:203.0.113.7' }), trust('none'))).toBe('203.0.113.7');
    expect(clientAddress(headers({ 'x-forwarded-for': '1.2.3.4' }), trust(''))).toBe('unknown');
  });

  it('is the right-most entry before the trusted hops, so a forged first hop changes nothing', () => {
    // nginx (10.0.0.2) appended the real client to what the client sent.
    const forged = headers({ [PEER_HEADER]: '10.0.0.2', 'x-forwarded-for': 'forged-1, 198.51.100.9' });
    expect(clientAddress(forged, trust('1'))).toBe('198.51.100.9');
    expect(clientAddress(forged, trust('10.0.0.0/8'))).toBe('198.51.100.9');
    expect(clientAddress(headers({ [PEER_HEADER]: '10.0.0.2', 'x-forwarded-for': 'a, 198.51.100.9, 10.0.0.3' }), trust('2'))).toBe('198.51.100.9');
    expect(clientAddress(headers({ [PEER_HEADER]: '10.0.0.2', 'x-forwarded-for': '198.51.100.9, 10.0.0.3' }), trust('10.0.0.0/8, ::1'))).toBe('198.51.100.9');
    // More hops trusted than there are: the left-most entry.
    expect(clientAddress(headers({ [PEER_HEADER]: '10.0.0.2', 'x-forwarded-for': '198.51.100.9' }), trust('3'))).toBe('198.51.100.9');
    // A direct client of a portal that expects a proxy is still itself.
    expect(clientAddress(headers({ [PEER_HEADER]: '198.51.100.20', 'x-forwarded-for': 'forged' }), trust('10.0.0.0/8'))).toBe('198.51.100.20');
  });

  it('refuses a TRUSTED_PROXIES it cannot read, saying why', () => {
    expect(parseTrustedProxies('10.0.0.0/33')).toBe('"10.0.0.0/33" has a bad prefix length');
    expect(parseTrustedProxies('proxy.example')).toBe('"proxy.example" is not an IP address or CIDR');
    expect(parseTrustedProxies('11')).toBe('must be at most 10 hops');
  });

  it('comes from the socket of a real server, replacing a header the client sent under its name', async () => {
    installPeerAddressHeader();
    installPeerAddressHeader();
    const seen: (string | string[] | undefined)[] = [];
    const server = http.createServer((req, res) => {
      seen.push(req.headers[PEER_HEADER]);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await fetch(`http://127.0.0.1:${port}/`, { headers: { [PEER_HEADER]: '6.6.6.6', 'x-forwarded-for': '6.6.6.6' } });
      expect(seen).toEqual(['127.0.0.1']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
