import ipaddr from 'ipaddr.js';

const IPV4_CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(\/(\d{1,2}))?$/;

/** Normalises an IPv4 address or CIDR ("10.0.0.1" -> "10.0.0.1/32"); null when it is not one. */
export function normaliseIpv4Cidr(entry: string): string | null {
  const match = IPV4_CIDR.exec(entry.trim());
  if (!match) return null;
  const octets = match.slice(1, 5).map(Number);
  if (octets.some((o) => o > 255) || match.slice(1, 5).some((o) => o.length > 1 && o.startsWith('0'))) return null;
  const bits = match[6] === undefined ? 32 : Number(match[6]);
  if (bits > 32) return null;
  // Keep the network address, so "10.1.2.3/8" and "10.0.0.0/8" are the same entry.
  const network = ipaddr.IPv4.networkAddressFromCIDR(`${octets.join('.')}/${bits}`);
  return `${network.toString()}/${bits}`;
}

/** The caller's address as IPv4 when it is one (IPv4-mapped IPv6 included); null otherwise. */
export function clientIpv4(ip: string): ipaddr.IPv4 | null {
  if (!ipaddr.isValid(ip)) return null;
  const parsed = ipaddr.process(ip);
  return parsed.kind() === 'ipv4' ? (parsed as ipaddr.IPv4) : null;
}

/** True when the list is empty (no restriction) or one of its ranges contains the address. */
export function ipAllowed(ip: string, allowList: readonly string[]): boolean {
  if (allowList.length === 0) return true;
  const address = clientIpv4(ip);
  if (!address) return false;
  return allowList.some((cidr) => address.match(ipaddr.IPv4.parseCIDR(cidr)));
}
