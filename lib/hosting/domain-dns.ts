import 'server-only';
import { lookup as systemLookup, Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { domainsOf } from '@/db/queries/domains';
import { projectExists } from '@/db/queries/projects';
import { notFound } from '../errors';
import { canonicalHostName } from './host-name';
import type { Runtime } from '../runtime';
import { isValidSlug } from './slug';

export interface DomainDnsState {
  host: string;
  /** Whether the domain's addresses include one of this service's. */
  points_here: boolean;
  /** What DNS answered for the domain (A and AAAA), as the server sees it. */
  addresses: string[];
  /** This service's addresses it was compared with (PUBLIC_URL's host name, else the console's). */
  service_addresses: string[];
  /** The resolver's error code when the domain has no address (ENOTFOUND, ETIMEOUT, …). */
  error: string | null;
}

const lookup = async (name: string): Promise<{ addresses: string[]; error: string | null }> => {
  if (isIP(name)) return { addresses: [name], error: null };
  // One try, a short wait: a console page is waiting for the answer.
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
  const addresses = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
  const failed = v4.status === 'rejected' ? (v4.reason as { code?: string }) : v6.status === 'rejected' ? (v6.reason as { code?: string }) : null;
  return { addresses, error: addresses.length === 0 ? (failed?.code ?? 'ENODATA') : null };
};

/** The service's own addresses as this machine resolves its name (the hosts file included). */
const ownAddresses = async (name: string): Promise<string[]> => {
  if (isIP(name)) return [name];
  try {
    return (await systemLookup(name, { all: true })).map((a) => a.address);
  } catch {
    return (await lookup(name)).addresses;
  }
};

/**
 * GET /api/projects/:slug/domains: each custom domain's DNS as this server resolves it, and
 * whether it points here (shares an address with the service's own host name). Looked up on
 * request, never cached: the point is to see a change just made at the registrar.
 */
export async function checkProjectDomains(rt: Runtime, slug: string, requestHost: string | undefined): Promise<{ domains: DomainDnsState[] }> {
  if (!isValidSlug(slug) || !(await projectExists(rt.db, slug))) throw notFound('No such project');
  const hosts = (await domainsOf(rt.db, [slug])).get(slug) ?? [];
  const ownName = rt.env.publicUrl ? new URL(rt.env.publicUrl).hostname : canonicalHostName(requestHost);
  const own = { addresses: ownName ? await ownAddresses(ownName.replace(/^\[|\]$/g, '')) : [] };
  const domains = await Promise.all(
    hosts.map(async (host) => {
      const { addresses, error } = await lookup(host);
      return { host, points_here: addresses.some((a) => own.addresses.includes(a)), addresses, service_addresses: own.addresses, error };
    }),
  );
  return { domains };
}
