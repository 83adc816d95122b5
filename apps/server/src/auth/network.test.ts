import { describe, expect, it } from 'vitest';
import { networkOf } from './network.js';

describe('networkOf', () => {
  it('keeps IPv4 addresses as they are, also when written as IPv6', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.7');
    expect(networkOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(networkOf('::FFFF:127.0.0.1')).toBe('127.0.0.1');
  });

  it('counts every address of one IPv6 /64 as one network, however it is written', () => {
    const same = [
      '2001:db8:7:7::1',
      '2001:0db8:0007:0007:abcd::9',
      '2001:db8:7:7:ffff:ffff:ffff:ffff',
      '2001:DB8:7:7::1%eth0',
    ];
    expect(new Set(same.map(networkOf))).toEqual(new Set(['2001:db8:7:7::/64']));
    expect(networkOf('2001:db8:7:8::1')).toBe('2001:db8:7:8::/64');
  });

  it('expands :: wherever it stands, and an IPv4 tail', () => {
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
    expect(networkOf('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(networkOf('fe80::1:2:3:4')).toBe('fe80:0:0:0::/64');
    expect(networkOf('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(networkOf('1:2:3:4:5:6:1.2.3.4')).toBe('1:2:3:4::/64');
  });

  it('counts a request whose connection has gone (no address left) under one key instead of failing', () => {
    expect(networkOf(undefined)).toBe('gone');
  });
});
