import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { AppError } from '../errors';

/**
 * The SSRF guard of webhook destinations (API.md "Events"): http(s) only; loopback, private,
 * shared (CGNAT) and unique-local addresses refused unless WEBHOOK_ALLOW_PRIVATE; link-local
 * (cloud metadata), unspecified, multicast and reserved addresses always. IPv6 forms that
 * carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that address. The
 * check runs on the URL at creation and on every resolved address at each delivery, and the
 * connection is made to the address checked (lib/events/deliver.ts), so a name that resolves
 * elsewhere the second time (DNS rebinding) gains nothing.
 */
const always = new BlockList();
always.addSubnet('0.0.0.0', 8, 'ipv4');
always.addSubnet('169.254.0.0', 16, 'ipv4');
always.addSubnet('224.0.0.0', 4, 'ipv4');
always.addSubnet('240.0.0.0', 4, 'ipv4');
always.addSubnet('192.0.0.0', 24, 'ipv4');
always.addSubnet('::', 128, 'ipv6');
always.addSubnet('fe80::', 10, 'ipv6');
always.addSubnet('ff00::', 8, 'ipv6');
// AWS's IPv6 instance metadata address sits in the unique-local range.
always.addAddress('fd00:ec2::254', 'ipv6');

const privateRanges = new BlockList();
privateRanges.addSubnet('127.0.0.0', 8, 'ipv4');
privateRanges.addSubnet('10.0.0.0', 8, 'ipv4');
privateRanges.addSubnet('172.16.0.0', 12, 'ipv4');
privateRanges.addSubnet('192.168.0.0', 16, 'ipv4');
privateRanges.addSubnet('100.64.0.0', 10, 'ipv4');
privateRanges.addSubnet('198.18.0.0', 15, 'ipv4');
privateRanges.addAddress('::1', 'ipv6');
privateRanges.addSubnet('fc00::', 7, 'ipv6');

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), or null. */
function embeddedIpv4(ip: string): string | null {
  const lower = ip.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const words = expandIpv6(lower);
  if (!words) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (zero(0, 5) && words[5] === 0xffff) return v4(words[6], words[7]);
  if (zero(0, 6) && (words[6] !== 0 || words[7] > 1)) return v4(words[6], words[7]);
  if (words[0] === 0x64 && words[1] === 0xff9b && zero(2, 6)) return v4(words[6], words[7]);
  if (words[0] === 0x2002) return v4(words[1], words[2]);
  return null;
}

function expandIpv6(ip: string): number[] | null {
  const [head, tail, extra] = ip.split('::');
  if (extra !== undefined) return null;
  const parse = (s: string | undefined) => (s ? s.split(':').map((w) => parseInt(w, 16)) : []);
  const a = parse(head);
  const b = parse(tail);
  const words = tail === undefined ? a : [...a, ...Array(8 - a.length - b.length).fill(0), ...b];
  return words.length === 8 && words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : null;
}

/** Why an address may not receive webhooks, or null when it may. */
export function refusedAddress(ip: string, allowPrivate: boolean): string | null {
  const family = isIP(ip);
  if (family === 0) return 'not an IP address';
  const v4 = family === 6 ? embeddedIpv4(ip) : ip;
  const [addr, type] = v4 ? [v4, 'ipv4' as const] : [ip, 'ipv6' as const];
  if (always.check(addr, type)) return 'a link-local, unspecified, multicast or reserved address';
  if (!allowPrivate && privateRanges.check(addr, type)) return 'a loopback or private address (set WEBHOOK_ALLOW_PRIVATE=true for receivers on your network)';
  return null;
}

export type Lookup = (host: string) => Promise<{ address: string; family: number }[]>;
const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

export const notAllowed = (why: string) => new AppError('webhook_url_not_allowed', `This webhook URL is not allowed: ${why}`);

/** The URL of a webhook, parsed and checked for its form (http(s), no credentials). */
export function parseWebhookUrl(raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw notAllowed('not a URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw notAllowed('only http and https are allowed');
  if (u.username || u.password) throw notAllowed('credentials in the URL are not allowed');
  return u;
}

/**
 * The address to connect to for `url`: its IP literal, or the first of what its name resolves
 * to, when every resolved address is allowed (a name with one refused address is refused).
 */
export async function resolveDestination(url: URL, allowPrivate: boolean, lookup: Lookup = systemLookup): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host);
    } catch {
      throw notAllowed(`${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw notAllowed(`${host} does not resolve`);
  for (const a of addresses) {
    const why = refusedAddress(a.address, allowPrivate);
    if (why) throw notAllowed(`${host} is ${why}`);
  }
  return { address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
}
