import ipaddr from 'ipaddr.js';

/**
 * The network a client address belongs to, as Settings → Sessions shows it: an IPv4 /24 or an
 * IPv6 /64, never the full address. An IPv4-mapped IPv6 address counts as IPv4.
 */
export function networkOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return '';
  let a = ipaddr.parse(ip);
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()) a = (a as ipaddr.IPv6).toIPv4Address();
  if (a.kind() === 'ipv4') {
    const o = (a as ipaddr.IPv4).octets;
    return `${o[0]}.${o[1]}.${o[2]}.0/24`;
  }
  const p = (a as ipaddr.IPv6).parts.slice(0, 4);
  return `${ipaddr.IPv6.parse(`${p.map((x) => x.toString(16)).join(':')}::`).toString()}/64`;
}
