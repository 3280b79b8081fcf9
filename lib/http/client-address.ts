import 'server-only';
import { BlockList, isIP } from 'node:net';

/**
 * Who is on the other end of a request, for throttling and logs. The address a handler can trust
 * is the socket's: Next keeps a client's own `X-Forwarded-For` as it is, so its first hop is
 * whatever the client wrote. The socket's address is copied into PEER_HEADER when the request
 * arrives (installPeerAddressHeader, from instrumentation.ts), overwriting anything sent under that
 * name. Behind proxies (TRUSTED_PROXIES) the client is the right-most X-Forwarded-For entry that
 * is not one of them.
 */
export const PEER_HEADER = 'x-portal-peer-address';

/** TRUSTED_PROXIES: none, a number of proxy hops in front of the portal, or their addresses/CIDRs. */
export type TrustedProxies = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'list'; list: BlockList; text: string };

/** Parses TRUSTED_PROXIES ("", "1", "10.0.0.0/8, 192.168.1.5, ::1"); a sentence for what is wrong. */
export function parseTrustedProxies(value: string | undefined): TrustedProxies | string {
  const text = (value ?? '').trim();
  if (text === '' || text === '0' || text.toLowerCase() === 'none') return { kind: 'none' };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 10 ? { kind: 'hops', hops } : 'must be at most 10 hops';
  }
  const list = new BlockList();
  for (const entry of text.split(',').map((e) => e.trim()).filter(Boolean)) {
    const [address, prefix] = entry.split('/', 2) as [string, string | undefined];
    const family = isIP(address);
    if (family === 0) return `"${entry}" is not an IP address or CIDR`;
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else {
      const bits = Number(prefix);
      if (!/^\d+$/.test(prefix) || bits > (family === 6 ? 128 : 32)) return `"${entry}" has a bad prefix length`;
      list.addSubnet(address, bits, type);
    }
  }
  return { kind: 'list', list, text };
}

function normalise(address: string): string {
  const trimmed = address.trim().replace(/^\[(.*)\](:\d+)?$/, '$1');
  // IPv4 addresses as the dual-stack socket reports them.
  return trimmed.startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
}

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** The client's address from the request's headers under the given proxy trust. */
export function clientAddress(get: (name: string) => string | undefined, trusted: TrustedProxies): string {
  const peer = normalise(get(PEER_HEADER) ?? '');
  if (!peer) return 'unknown';
  if (trusted.kind === 'none') return peer;
  const chain = [...(get('x-forwarded-for') ?? '').split(',').map(normalise).filter(Boolean), peer];
  if (trusted.kind === 'hops') return chain[Math.max(0, chain.length - 1 - trusted.hops)] ?? peer;
  for (let i = chain.length - 1; i >= 0; i--) if (!isTrusted(trusted.list, chain[i]!)) return chain[i]!;
  return chain[0] ?? peer;
}

/**
 * True when the request's immediate peer is one of TRUSTED_PROXIES, so that the headers it adds
 * (X-Forwarded-Host, -Proto, -For) are its word, not the client's. A hop count trusts any peer
 * (the operator said every request passes that many proxies).
 */
export function isTrustedPeer(get: (name: string) => string | undefined, trusted: TrustedProxies): boolean {
  if (trusted.kind === 'none') return false;
  if (trusted.kind === 'hops') return trusted.hops > 0;
  const peer = normalise(get(PEER_HEADER) ?? '');
  return peer !== '' && isTrusted(trusted.list, peer);
}
