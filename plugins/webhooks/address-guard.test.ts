import { describe, expect, it } from 'vitest';
import { isAllowedAddress, unmapped } from './address-guard.ts';

const strict = { allowPrivateNetworks: false, allowedCidrs: [] };

describe('webhook address guard', () => {
  it('refuses loopback, private, link-local, unique-local, multicast, unspecified and mapped forms', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fd00::1',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
    ]) {
      expect(isAllowedAddress(address, strict), address).toBe(false);
    }
  });

  it('allows public addresses', () => {
    for (const address of ['8.8.8.8', '203.0.114.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isAllowedAddress(address, strict), address).toBe(true);
    }
  });

  it("follows the operator's allowances: a CIDR list, or every address", () => {
    const cidr = { allowPrivateNetworks: false, allowedCidrs: ['10.20.0.0/16', 'fd00::/8'] };
    expect(isAllowedAddress('10.20.3.4', cidr)).toBe(true);
    expect(isAllowedAddress('::ffff:10.20.3.4', cidr)).toBe(true);
    expect(isAllowedAddress('fd00::5', cidr)).toBe(true);
    expect(isAllowedAddress('10.21.0.1', cidr)).toBe(false);
    expect(isAllowedAddress('169.254.169.254', cidr)).toBe(false);
    expect(isAllowedAddress('169.254.169.254', { allowPrivateNetworks: true, allowedCidrs: [] })).toBe(true);
  });

  it('reads IPv4-mapped IPv6 in both notations', () => {
    expect(unmapped('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(unmapped('::FFFF:10.0.0.1')).toBe('10.0.0.1');
    expect(unmapped('2001:db8::1')).toBe('2001:db8::1');
  });
});
