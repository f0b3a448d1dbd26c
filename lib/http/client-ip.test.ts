import { describe, expect, it } from 'vitest';
import { normalizeIp, resolveClientIp } from './client-ip';

describe('resolveClientIp', () => {
  it('ignores X-Forwarded-For unless TRUST_PROXY is set', () => {
    expect(resolveClientIp('10.0.0.9', '1.2.3.4', 0)).toBe('10.0.0.9');
  });

  it('takes the hop the configured proxies added, not what the client wrote first', () => {
    expect(resolveClientIp('10.0.0.9', 'spoofed-by-client, 203.0.113.7', 1)).toBe('203.0.113.7');
    expect(resolveClientIp('10.0.0.9', '1.1.1.1, 203.0.113.7, 10.0.0.2', 2)).toBe('203.0.113.7');
  });

  it('falls back to the socket for a malformed forwarded address', () => {
    expect(resolveClientIp('10.0.0.9', 'not-an-ip', 1)).toBe('10.0.0.9');
  });
});

describe('normalizeIp', () => {
  it('counts IPv6 clients per /64 and IPv4-mapped addresses as IPv4', () => {
    expect(normalizeIp('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(normalizeIp('2001:db8:1:2::1')).toBe(normalizeIp('2001:db8:1:2:ffff::9'));
    expect(normalizeIp('2001:db8:1:3::1')).not.toBe(normalizeIp('2001:db8:1:2::1'));
    expect(normalizeIp('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(normalizeIp('192.0.2.1')).toBe('192.0.2.1');
  });

  it('reads every IPv6 spelling of an address as the same client (compressed, zero-padded, upper case, zone, IPv4 inside)', () => {
    expect(normalizeIp('2001:0DB8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(normalizeIp('::1')).toBe('0:0:0:0::/64');
    expect(normalizeIp('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(normalizeIp('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(normalizeIp('::FFFF:192.0.2.1')).toBe('192.0.2.1');
    expect(normalizeIp('0:0:0:0:0:ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(normalizeIp('unknown')).toBe('unknown');
  });
});
