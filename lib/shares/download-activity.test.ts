import { describe, expect, it } from 'vitest';
import { truncateAddress } from './download-activity';

describe('truncateAddress', () => {
  it('keeps IPv4 to its /24 and IPv6 to its /48, from an address or the /64 a request carries', () => {
    expect(truncateAddress('203.0.113.77')).toBe('203.0.113.0');
    expect(truncateAddress('::ffff:203.0.113.77')).toBe('203.0.113.0');
    expect(truncateAddress('2001:db8:1:2::/64')).toBe('2001:db8:1::');
    expect(truncateAddress('0:0:0:0::/64')).toBe('0:0:0::');
    expect(truncateAddress('2001:0DB8:0001:0002::9')).toBe('2001:db8:1::');
    expect(truncateAddress('unknown')).toBe('');
  });
});
