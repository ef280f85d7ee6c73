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

/**
 * Normalises an IPv4 or IPv6 address or CIDR to its network ("10.1.2.3/8" -> "10.0.0.0/8", "::1" -> "::1/128");
 * IPv4-mapped IPv6 becomes IPv4. Null when it is not one.
 */
export function normaliseCidr(entry: string): string | null {
  const text = entry.trim();
  if (text.includes('/')) {
    const [addressText = '', bitsText = ''] = text.split('/');
    if (!canonicalIp(addressText) || !/^\d{1,3}$/.test(bitsText) || !ipaddr.isValidCIDR(text)) return null;
    const [address, bits] = ipaddr.parseCIDR(text);
    if (address.kind() === 'ipv4') {
      return `${ipaddr.IPv4.networkAddressFromCIDR(text).toString()}/${bits}`;
    }
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress() && bits >= 96) return normaliseCidr(`${v6.toIPv4Address().toString()}/${bits - 96}`);
    return `${ipaddr.IPv6.networkAddressFromCIDR(text).toString()}/${bits}`;
  }
  const address = canonicalIp(text);
  if (!address) return null;
  return `${address}/${address.includes(':') ? 128 : 32}`;
}

/** An IP address in canonical form (IPv4-mapped IPv6 as IPv4, IPv6 compressed); null when it is not one. */
export function canonicalIp(text: string): string | null {
  // ipaddr.isValid also takes "1", "0x7f.1" and other classful forms no peer sends: insist on a full address.
  if (!ipaddr.IPv4.isValidFourPartDecimal(text) && !(text.includes(':') && ipaddr.IPv6.isValid(text))) return null;
  return ipaddr.process(text).toString();
}

/** True when one of the normalised CIDRs contains the address (canonical form, see canonicalIp). */
export function ipInRanges(ip: string, cidrs: readonly string[]): boolean {
  const address = ipaddr.parse(ip);
  return cidrs.some((cidr) => {
    const range = ipaddr.parseCIDR(cidr);
    return range[0].kind() === address.kind() && address.match(range);
  });
}
