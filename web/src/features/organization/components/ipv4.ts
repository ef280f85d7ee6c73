const IPV4_CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/;

/** An IPv4 address or CIDR as [network, bits] (network as an unsigned 32-bit number), or null. */
export function parseIpv4Cidr(text: string): [number, number] | null {
  const match = IPV4_CIDR.exec(text.trim());
  if (!match) return null;
  const octets = match.slice(1, 5);
  if (octets.some((o) => Number(o) > 255 || (o.length > 1 && o.startsWith('0')))) return null;
  const bits = match[5] === undefined ? 32 : Number(match[5]);
  if (bits > 32) return null;
  const address = octets.reduce((value, o) => value * 256 + Number(o), 0);
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return [(address & mask) >>> 0, bits];
}

/** The canonical form the server stores ("10.1.2.3/8" -> "10.0.0.0/8", "10.0.0.1" -> "10.0.0.1/32"). */
export function normaliseCidr(text: string): string | null {
  const parsed = parseIpv4Cidr(text);
  if (!parsed) return null;
  const [network, bits] = parsed;
  const octets = [24, 16, 8, 0].map((shift) => (network >>> shift) & 255);
  return `${octets.join('.')}/${bits}`;
}

/** Whether a CIDR range contains an IPv4 address. */
export function cidrContains(cidr: string, ip: string): boolean {
  const range = parseIpv4Cidr(cidr);
  const address = parseIpv4Cidr(ip);
  if (!range || !address || address[1] !== 32) return false;
  const [network, bits] = range;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (address[0] & mask) >>> 0 === network;
}
