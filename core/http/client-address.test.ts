import { describe, expect, it } from 'vitest';
import { normaliseCidr } from '../access/ip.ts';
import { clientAddress, hopAddress } from './client-address.ts';

const PROXIES = ['10.0.0.0/8', '127.0.0.1/32', '2001:db8:1::/48'];
const resolve = (peer: string, forwardedFor?: string, forwardedProto?: string, encrypted = false) =>
  clientAddress({ peer, encrypted, forwardedFor, forwardedProto }, PROXIES);

describe('client address behind trusted proxies', () => {
  it('takes the socket peer and ignores X-Forwarded-For when the peer is not a trusted proxy', () => {
    expect(resolve('198.51.100.7', '203.0.113.9')).toEqual({ ip: '198.51.100.7', secure: false });
    expect(
      clientAddress({ peer: '127.0.0.1', encrypted: false, forwardedFor: '203.0.113.9', forwardedProto: 'https' }, []),
    ).toEqual({ ip: '127.0.0.1', secure: false });
  });

  it('takes the rightmost untrusted hop, never the leftmost entry a client can forge', () => {
    // The client sent "X-Forwarded-For: 192.0.2.1" itself; the proxy at 10.0.0.5 appended what it saw.
    expect(resolve('10.0.0.5', '192.0.2.1, 203.0.113.9').ip).toBe('203.0.113.9');
    // Two proxies of ours in a row: both are walked over.
    expect(resolve('127.0.0.1', '192.0.2.1, 203.0.113.9, 10.1.2.3').ip).toBe('203.0.113.9');
  });

  it('walks IPv6 hops and IPv4-mapped peers', () => {
    expect(resolve('2001:db8:1::10', '2001:db8:ffff::1').ip).toBe('2001:db8:ffff::1');
    expect(resolve('::ffff:10.0.0.5', '[2001:db8:ffff:0:0:0:0:2]:4431').ip).toBe('2001:db8:ffff::2');
    expect(resolve('::ffff:198.51.100.7').ip).toBe('198.51.100.7');
  });

  it('stops at the last trusted hop on a malformed entry', () => {
    expect(resolve('10.0.0.5', '203.0.113.9, unknown').ip).toBe('10.0.0.5');
    expect(resolve('10.0.0.5', '203.0.113.9, 10.0.0.6, 1.2.3.999').ip).toBe('10.0.0.5');
    expect(resolve('10.0.0.5', 'unknown, 10.0.0.6').ip).toBe('10.0.0.6');
  });

  it('takes the peer itself when only trusted hops are listed, or none', () => {
    expect(resolve('10.0.0.5').ip).toBe('10.0.0.5');
    expect(resolve('10.0.0.5', '10.0.0.6, 10.0.0.7').ip).toBe('10.0.0.6');
  });

  it('reads X-Forwarded-Proto only from a trusted proxy', () => {
    expect(resolve('198.51.100.7', undefined, 'https').secure).toBe(false);
    expect(resolve('10.0.0.5', '203.0.113.9', 'https').secure).toBe(true);
    expect(resolve('10.0.0.5', '203.0.113.9', 'http').secure).toBe(false);
    expect(resolve('198.51.100.7', undefined, undefined, true).secure).toBe(true);
  });

  it("takes the client's own scheme when every proxy appends, the nearest proxy's when one overwrites", () => {
    // The client forged "https" over plain HTTP; the edge proxy appended what it saw.
    expect(resolve('10.0.0.5', '192.0.2.1, 203.0.113.9', 'https, http').secure).toBe(false);
    expect(resolve('10.0.0.5', '203.0.113.9, 10.0.0.6', 'https, http').secure).toBe(true);
    expect(resolve('10.0.0.5', '192.0.2.1, 203.0.113.9', 'https').secure).toBe(true);
  });
});

describe('X-Forwarded-For entries', () => {
  it('accepts addresses with or without a port and refuses anything else', () => {
    expect(hopAddress(' 203.0.113.9 ')).toBe('203.0.113.9');
    expect(hopAddress('203.0.113.9:8080')).toBe('203.0.113.9');
    expect(hopAddress('[2001:db8::1]')).toBe('2001:db8::1');
    expect(hopAddress('2001:db8::1')).toBe('2001:db8::1');
    for (const bad of ['', 'unknown', '_hidden', '1.2.3', '0x7f.0.0.1', '01.2.3.4', '[1.2.3.4]', 'a.b.c.d:80']) {
      expect(hopAddress(bad)).toBeNull();
    }
  });
});

describe('TRUSTED_PROXIES entries', () => {
  it('normalises IPv4 and IPv6 addresses and CIDRs to their network', () => {
    expect(normaliseCidr('10.1.2.3/8')).toBe('10.0.0.0/8');
    expect(normaliseCidr('127.0.0.1')).toBe('127.0.0.1/32');
    expect(normaliseCidr('::1')).toBe('::1/128');
    expect(normaliseCidr('2001:db8:1::5/48')).toBe('2001:db8:1::/48');
    expect(normaliseCidr('::ffff:10.0.0.0/104')).toBe('10.0.0.0/8');
    for (const bad of ['10.0.0.0/33', '2001:db8::/129', 'proxy.local', '10/8', '10.0.0.0/']) {
      expect(normaliseCidr(bad)).toBeNull();
    }
  });
});
