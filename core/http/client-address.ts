/*
 * Who the client is behind reverse proxies. Only proxies listed by address (TRUSTED_PROXIES) are believed: starting
 * at the socket peer, each hop that is a trusted proxy hands over to the address it put in X-Forwarded-For (the entry
 * to its left), and the first hop that is not a trusted proxy is the client. Entries left of it were written by the
 * client itself and are never read, so a forged X-Forwarded-For cannot pass IP restriction or enter the operation log.
 * Koa's own `proxy` option (leftmost entry from any peer) stays off; nothing else reads ctx.ip or ctx.ips.
 */
import { canonicalIp, ipInRanges } from '../access/ip.ts';

/** The client as the service sees it: its address, and whether its connection to the first proxy (or us) is TLS. */
export interface ClientAddress {
  ip: string;
  secure: boolean;
}

/** What the request carries about its path to us. */
export interface ForwardingInput {
  /** The socket peer's address (undefined once the socket is gone). */
  peer: string | undefined;
  /** The socket is TLS (the service itself terminates it). */
  encrypted: boolean;
  forwardedFor: string | undefined;
  forwardedProto: string | undefined;
}

/** One X-Forwarded-For entry: an address, optionally "1.2.3.4:port", "[v6]" or "[v6]:port"; null when malformed. */
export function hopAddress(entry: string): string | null {
  const text = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) return bracketed[1]!.includes(':') ? canonicalIp(bracketed[1]!) : null;
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(text);
  return canonicalIp(v4WithPort ? v4WithPort[1]! : text);
}

/**
 * The client's address: the rightmost X-Forwarded-For hop that is not a trusted proxy, walking left from the socket
 * peer (a malformed entry stops the walk at the last trusted hop); and whether it came over TLS, believing
 * X-Forwarded-Proto only when the peer is a trusted proxy.
 */
export function clientAddress(input: ForwardingInput, trustedProxies: readonly string[]): ClientAddress {
  const peer = input.peer ? (canonicalIp(input.peer) ?? input.peer) : '';
  const trusted = (ip: string) => canonicalIp(ip) !== null && ipInRanges(ip, trustedProxies);
  if (!trusted(peer)) return { ip: peer, secure: input.encrypted };

  const hops = input.forwardedFor ? input.forwardedFor.split(',') : [];
  let client = peer;
  let index = hops.length; // where the client stands in `hops`; hops.length is the peer itself
  while (index > 0 && trusted(client)) {
    const next = hopAddress(hops[index - 1]!);
    if (!next) break;
    index -= 1;
    client = next;
  }
  return { ip: client, secure: input.encrypted || forwardedProtocol(input.forwardedProto, hops.length, index) };
}

/**
 * The scheme the client used. When every proxy appends to both headers, X-Forwarded-Proto has one entry per
 * X-Forwarded-For entry and the client's own is at its index; otherwise the rightmost value is the one the nearest
 * proxy set (a proxy that overwrites the header leaves one value).
 */
function forwardedProtocol(header: string | undefined, hopCount: number, clientIndex: number): boolean {
  if (!header) return false;
  const protos = header.split(',').map((p) => p.trim().toLowerCase());
  const proto = protos.length === hopCount && clientIndex < hopCount ? protos[clientIndex] : protos[protos.length - 1];
  return proto === 'https';
}
