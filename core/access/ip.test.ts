import { describe, expect, it } from 'vitest';
import { ipAllowed, normaliseIpv4Cidr } from './ip.ts';

describe('IPv4 allow-list', () => {
  it('normalises addresses to /32 and ranges to their network address', () => {
    expect(normaliseIpv4Cidr('192.0.2.1')).toBe('192.0.2.1/32');
    expect(normaliseIpv4Cidr(' 10.1.2.3/8 ')).toBe('10.0.0.0/8');
    expect(normaliseIpv4Cidr('0.0.0.0/0')).toBe('0.0.0.0/0');
  });

  it('rejects what is not an IPv4 address or CIDR', () => {
    for (const bad of ['256.0.0.1', '1.2.3', '1.2.3.4/33', '01.2.3.4', 'fe80::1', 'example.com', '1.2.3.4/']) {
      expect(normaliseIpv4Cidr(bad)).toBeNull();
    }
  });

  it('allows everyone when the list is empty and matches IPv4-mapped IPv6 callers', () => {
    expect(ipAllowed('192.0.2.1', [])).toBe(true);
    expect(ipAllowed('::ffff:192.0.2.1', ['192.0.2.0/24'])).toBe(true);
    expect(ipAllowed('192.0.3.1', ['192.0.2.0/24'])).toBe(false);
    expect(ipAllowed('::1', ['127.0.0.1/32'])).toBe(false);
  });
});
