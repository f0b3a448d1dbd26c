import 'server-only';
import { listAllDomains } from '@/db/queries/domains';
import { EPOCH } from '@/db/queries/settings';
import { epochCache } from '../epoch-cache';
import { AppError, badRequest } from '../errors';
import { canonicalHostName } from './host-name';
import { mirrorDomains } from '../front-link';
import { perRuntime, type Runtime } from '../runtime';

/**
 * Custom domains (API.md "Hosted projects"): the host-name index every request consults
 * before anything else (lib/http/origin.ts decideHost). The steady state is a synchronous Map
 * lookup (domainIndexNow); after any hosting change (the hosting epoch: this instance's at
 * once, another's within ~250 ms) the next request reloads it with one query, shared by the
 * requests that arrive meanwhile. While the database cannot be read the last index serves.
 */
export const MAX_DOMAINS = 20;

export type DomainIndex = ReadonlyMap<string, string>;

const cache = epochCache<DomainIndex>({ name: 'domain-index', epoch: EPOCH.hosting, maxEntries: 1 });

/** Each service's index. */
const stateOf = perRuntime(() => ({ index: new Map() as DomainIndex, gen: -1, failedAt: 0, loading: null as Promise<DomainIndex> | null }));

/** The index when it is current (or the database just failed to give a newer one), else null: load it first. */
export function domainIndexNow(rt: Runtime): DomainIndex | null {
  const state = stateOf(rt);
  return state.gen === cache.generation(rt) || Date.now() - state.failedAt < 1000 ? state.index : null;
}

/** Loads the index (one load at a time); the last one known when the database cannot be read. */
export function loadDomainIndex(rt: Runtime): Promise<DomainIndex> {
  const state = stateOf(rt);
  state.loading ??= (async () => {
    try {
      const gen = cache.generation(rt);
      const index = await cache.get(rt, 'all', async () => new Map((await listAllDomains(rt.db)).map((d) => [d.host, d.slug])));
      if (gen === cache.generation(rt)) {
        if (index !== state.index) mirrorDomains(rt, index);
        state.index = index;
        state.gen = gen;
      }
    } catch {
      state.failedAt = Date.now();
    } finally {
      state.loading = null;
    }
    return state.index;
  })();
  return state.loading;
}

const hostNameOf = canonicalHostName;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A host name as a project's domain: a DNS name of two labels or more (punycode for other
 * scripts), not an address, not a loopback name, not the service's own host names.
 */
export function normalizeDomain(rt: Runtime, input: string): string {
  const trimmed = input.trim();
  const name = /[/:@?#\s]/.test(trimmed) ? null : hostNameOf(trimmed);
  const labels = name?.split('.') ?? [];
  const valid =
    name !== null &&
    name.length <= 253 &&
    labels.length >= 2 &&
    labels.every((l) => LABEL.test(l)) &&
    /[a-z]/.test(labels[labels.length - 1]) &&
    !name.endsWith('.localhost') &&
    name !== 'localhost';
  if (!valid) throw badRequest(`"${input.slice(0, 300)}" is not a host name (like www.example.com)`);
  const own = [rt.env.publicUrl, rt.env.hosted.mode === 'origin' || rt.env.hosted.mode === 'per-site' ? rt.env.hosted.origin.replace('{slug}', 'x') : undefined];
  for (const url of own) {
    if (url && new URL(url).hostname === name) throw badRequest(`"${name}" is this service's own host name`);
  }
  return name!;
}

export function normalizeDomains(rt: Runtime, inputs: string[]): string[] {
  if (inputs.length > MAX_DOMAINS) throw badRequest(`A project may have at most ${MAX_DOMAINS} domains`);
  return [...new Set(inputs.map((d) => normalizeDomain(rt, d)))];
}

export const domainTaken = (host: string) => new AppError('domain_taken', `The domain "${host}" already belongs to another project`);

/** GET /api/tls/ask?domain=: whether a TLS proxy may get a certificate for `domain` (Caddy's on-demand `ask`). */
export async function tlsAsk(rt: Runtime, domain: string | undefined): Promise<{ ok: true }> {
  const name = hostNameOf(domain);
  const index = domainIndexNow(rt) ?? (await loadDomainIndex(rt));
  if (!name || !index.has(name)) throw new AppError('not_found', 'Not a domain of this service');
  return { ok: true };
}
