import { describe, expect, it } from 'vitest';
import { cidrContains, normaliseCidr } from './ipv4.ts';

describe('IPv4 CIDR helpers', () => {
  it('normalises like the server: a single address is /32 and a range keeps its network address', () => {
    expect(normaliseCidr('203.0.113.10')).toBe('203.0.113.10/32');
    expect(normaliseCidr(' 10.1.2.3/8 ')).toBe('10.0.0.0/8');
    expect(normaliseCidr('0.0.0.0/0')).toBe('0.0.0.0/0');
  });

  it('rejects what is not IPv4 or CIDR', () => {
    for (const bad of ['', '256.0.0.1', '10.0.0.1/33', '10.0.0', '01.2.3.4', '::1', 'abc']) {
      expect(normaliseCidr(bad)).toBeNull();
    }
  });

  it('tells whether a range contains an address', () => {
    expect(cidrContains('203.0.113.0/24', '203.0.113.7')).toBe(true);
    expect(cidrContains('203.0.113.0/24', '203.0.114.7')).toBe(false);
    expect(cidrContains('127.0.0.1/32', '127.0.0.1')).toBe(true);
    expect(cidrContains('0.0.0.0/0', '192.0.2.1')).toBe(true);
  });
});
