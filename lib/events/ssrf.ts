import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors';

/**
 * The SSRF guard of webhook destinations (API.md "Events"): http(s) only, and only global
 * unicast addresses, as classified by ipaddr.js (its table follows IANA's special-purpose
 * registries, so forms such as SIIT's ::ffff:0:a.b.c.d, local-use NAT64 and the old site-local
 * fec0::/10 are known ranges rather than patterns of our own; issue 39, item 9). Loopback,
 * private, shared (CGNAT), benchmarking, unique-local and local-use NAT64 addresses are refused
 * unless WEBHOOK_ALLOW_PRIVATE; everything else that is not global unicast (link-local and
 * cloud metadata, unspecified, multicast, documentation, reserved, site-local, Teredo, IPv6
 * outside 2000::/3) always. IPv6 forms that carry an IPv4 address (mapped, SIIT, compatible,
 * the well-known NAT64 prefix, 6to4) are judged by that address. The check runs on the URL at
 * creation and on every resolved address at each delivery, and the connection is made to the
 * address checked (lib/events/deliver.ts), so a name that resolves elsewhere the second time
 * (DNS rebinding) gains nothing.
 */
const PRIVATE_V4 = new Set(['private', 'loopback', 'carrierGradeNat']);
const PRIVATE_V6 = new Set(['loopback', 'uniqueLocal']);
const BENCHMARKING_V4 = ipaddr.parseCIDR('198.18.0.0/15') as [ipaddr.IPv4, number];
const LOCAL_USE_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48') as [ipaddr.IPv6, number];
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];
// AWS's IPv6 instance metadata address sits in the unique-local range.
const AWS_METADATA_V6 = ipaddr.parse('fd00:ec2::254').toString();

const ALWAYS = 'a link-local, unspecified, multicast or reserved address (not global unicast)';
const PRIVATE = 'a loopback or private address (set WEBHOOK_ALLOW_PRIVATE=true for receivers on your network)';

function v4FromWords(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
}

/** The IPv4 address an IPv6 address carries (mapped, SIIT, compatible, well-known NAT64, 6to4), or null. */
function embeddedIpv4(a: ipaddr.IPv6): ipaddr.IPv4 | null {
  const w = a.parts;
  const range = a.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return v4FromWords(w[6], w[7]);
  if (range === 'rfc6052' && !a.match(LOCAL_USE_NAT64)) return v4FromWords(w[6], w[7]);
  if (range === '6to4') return v4FromWords(w[1], w[2]);
  // IPv4-compatible (::a.b.c.d, deprecated), but not :: and ::1.
  if (w.slice(0, 6).every((x) => x === 0) && (w[6] !== 0 || w[7] > 1)) return v4FromWords(w[6], w[7]);
  return null;
}

function classifyV4(a: ipaddr.IPv4): 'ok' | 'private' | 'always' {
  const range = a.range();
  if (range === 'unicast') return 'ok';
  if (PRIVATE_V4.has(range) || a.match(BENCHMARKING_V4)) return 'private';
  return 'always';
}

function classify(ip: string): 'ok' | 'private' | 'always' {
  const a = ipaddr.parse(ip);
  if (a.kind() === 'ipv4') return classifyV4(a as ipaddr.IPv4);
  const v6 = a as ipaddr.IPv6;
  if (v6.toString() === AWS_METADATA_V6) return 'always';
  const v4 = embeddedIpv4(v6);
  if (v4) return classifyV4(v4);
  const range = v6.range();
  if (PRIVATE_V6.has(range) || v6.match(LOCAL_USE_NAT64)) return 'private';
  if (range === 'unicast' && v6.match(GLOBAL_UNICAST_V6)) return 'ok';
  return 'always';
}

/** Why an address may not receive webhooks, or null when it may. */
export function refusedAddress(ip: string, allowPrivate: boolean): string | null {
  // isIP first: ipaddr.js also parses forms the socket would not take as one address (e.g. "127.1").
  if (isIP(ip.replace(/%.*$/, '')) === 0 || !ipaddr.isValid(ip)) return 'not an IP address';
  const c = classify(ip);
  if (c === 'always') return ALWAYS;
  if (c === 'private' && !allowPrivate) return PRIVATE;
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
