import 'server-only';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The client address: the socket's peer, or with TRUST_PROXY=n the n-th address from the
 * right of X-Forwarded-For (each trusted proxy appends the address it saw).
 */
export function resolveClientIp(socketAddress: string | undefined, forwardedFor: string | null | undefined, trustProxy: number): string {
  if (trustProxy > 0 && forwardedFor) {
    const hops = forwardedFor.split(',').map((s) => s.trim()).filter(Boolean);
    const candidate = hops[hops.length - trustProxy] ?? hops[0];
    if (candidate && isIP(stripPort(candidate))) return normalizeIp(stripPort(candidate));
  }
  return socketAddress ? normalizeIp(socketAddress) : 'unknown';
}

function stripPort(value: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) return bracketed[1];
  const v4 = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(value);
  return v4 ? v4[1] : value;
}

const MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/**
 * IPv4-mapped addresses become IPv4; IPv6 clients are counted per /64 (parsed by ipaddr.js).
 * The mapped form a dual-stack socket reports, and IPv4, skip the parser: they are most
 * requests, and ipaddr.js takes microseconds per address.
 */
export function normalizeIp(ip: string): string {
  const mapped = MAPPED.exec(ip);
  if (mapped) return mapped[1];
  if (isIP(ip) !== 6) return ip;
  const a = ipaddr.IPv6.parse(ip);
  if (a.isIPv4MappedAddress()) return a.toIPv4Address().toString();
  return `${a.parts.slice(0, 4).map((p) => p.toString(16)).join(':')}::/64`;
}
