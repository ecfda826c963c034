import { describe, expect, it } from 'vitest';
import { clientAddressKey } from './client-address';

describe('clientAddressKey', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientAddressKey('10.1.2.3')).toBe('10.1.2.3');
  });

  it('counts IPv6 clients by their /64, however the address is written', () => {
    expect(clientAddressKey('2001:db8:77:1::1')).toBe('2001:db8:77:1::/64');
    expect(clientAddressKey('2001:0DB8:0077:0001:abcd:0:0:9')).toBe('2001:db8:77:1::/64');
    expect(clientAddressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
    expect(clientAddressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientAddressKey('2001:db8:77:1:0:0:10.0.0.1')).toBe('2001:db8:77:1::/64');
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(clientAddressKey('::ffff:10.9.8.7')).toBe('10.9.8.7');
    expect(clientAddressKey('::ffff:a09:807')).toBe('10.9.8.7');
  });

  it('keeps anything that is not an address as given', () => {
    expect(clientAddressKey('unknown')).toBe('unknown');
  });
});
