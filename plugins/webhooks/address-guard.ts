/*
 * The server-side request forgery guard: which addresses a webhook may be delivered to. Only public unicast
 * addresses, unless the operator allows every address (allowPrivateNetworks) or some ranges (allowedCidrs).
 * IPv4-mapped IPv6 (::ffff:a.b.c.d, also in hex) is judged as the IPv4 address it carries; NAT64 and 6to4 prefixes,
 * which can reach IPv4 hosts behind them, are refused as a whole.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const DENIED_V4 = [
  ['0.0.0.0', 8], // "this network", 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const;

const DENIED_V6 = [
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 23], // Teredo, benchmarking, ORCHID...
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const;

const denied = new BlockList();
for (const [address, prefix] of DENIED_V4) denied.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of DENIED_V6) denied.addSubnet(address, prefix, 'ipv6');

/** The operator's exceptions to the guard. */
export interface AddressPolicy {
  allowPrivateNetworks: boolean;
  allowedCidrs: string[];
}

/** An address the guard refused (the outcome `ssrf_blocked`). */
export class AddressBlockedError extends Error {
  readonly code = 'ADDRESS_BLOCKED';
  constructor(readonly address: string) {
    super(`webhook address ${address} is not allowed`);
  }
}

/** ::ffff:7f00:1 and ::ffff:127.0.0.1 are 127.0.0.1; any other address is returned as it is. */
export function unmapped(address: string): string {
  if (isIP(address) !== 6) return address;
  const normal = new URL(`http://[${address}]/`).hostname.slice(1, -1).toLowerCase();
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(normal);
  if (!mapped) return normal;
  const high = parseInt(mapped[1]!, 16);
  const low = parseInt(mapped[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

function allowList(policy: AddressPolicy): BlockList {
  const list = new BlockList();
  for (const cidr of policy.allowedCidrs) {
    const [address, prefix] = cidr.split('/') as [string, string];
    const family = isIP(address);
    if (family === 0) throw new Error(`KEIYAKU_PLUGIN_WEBHOOKS_ALLOWED_CIDRS: ${cidr} is not a CIDR`);
    list.addSubnet(unmapped(address), Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
  }
  return list;
}

/** Whether a webhook may be sent to this IP address. */
export function isAllowedAddress(address: string, policy: AddressPolicy): boolean {
  if (policy.allowPrivateNetworks) return true;
  const plain = unmapped(address);
  const family = isIP(plain) === 4 ? 'ipv4' : 'ipv6';
  if (policy.allowedCidrs.length > 0 && allowList(policy).check(plain, family)) return true;
  return !denied.check(plain, family);
}

/** A URL's host without IPv6 brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Resolves a host (an IP literal resolves to itself) and checks every address: AddressBlockedError when one is
 * not allowed, the resolver's error (ENOTFOUND...) when it does not resolve.
 */
export async function resolveAllowed(
  host: string,
  policy: AddressPolicy,
): Promise<{ address: string; family: 4 | 6 }[]> {
  const literal = isIP(host);
  const addresses = literal
    ? [{ address: host, family: literal as 4 | 6 }]
    : ((await lookup(host, { all: true, verbatim: true })) as { address: string; family: 4 | 6 }[]);
  for (const { address } of addresses) {
    if (!isAllowedAddress(address, policy)) throw new AddressBlockedError(address);
  }
  return addresses;
}
