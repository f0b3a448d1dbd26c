import 'server-only';
import { createHash } from 'node:crypto';
import { loadSite } from '@/db/queries/projects';
import { EPOCH } from '@/db/queries/settings';
import { epochCache, GUEST_CACHE_STALE_MS } from '../epoch-cache';
import { epochReadAt, onEpochRead } from '../epoch-watch';
import { mirrorSiteGeneration, mirrorSitesRead } from '../front-link';
import type { Encoding } from '../storage/keys';
import type { Runtime } from '../runtime';
import { hasContentHash, parseEncodings } from './compression';
import { compileSiteRules, HEADERS_FILE, REDIRECTS_FILE, RULE_FILES, type CompiledRules, type HeaderBlock, type RedirectRule } from './site-rules';

export interface SiteFile {
  id: string;
  path: string;
  storageKey: string;
  size: number;
  contentType: string;
  /** Quoted-less base of the ETag: the object key's digest (objects are never overwritten). */
  tag: string;
  /** Compressed copies in the store, by encoding: their sizes. */
  encodings: Map<Encoding, number>;
  immutable: boolean;
  updatedAt: Date;
}

export interface Site {
  slug: string;
  deployId: string;
  createdAt: Date;
  passwordHash: string | null;
  spa: boolean;
  allowDotfiles: boolean;
  /** Online files only: offline ones do not exist for guests; never `_redirects` nor `_headers`. */
  files: Map<string, SiteFile>;
  indexPath: string | null;
  /** The deploy's `_redirects` and `_headers`, compiled once here (null: none, or their files offline). */
  rules: CompiledRules | null;
}

/**
 * Sites by slug (or slug@deploy), so a hosted request costs no database round trip. Every
 * change bumps the hosting epoch: another instance's deploy, rollback or status change shows
 * here within ~250 ms, and the instance that made the change drops its cache as the change
 * commits (db/queries/settings.ts bumpEpoch). While the database is unreachable from this
 * instance only, the cache answers for GUEST_CACHE_STALE_MS after its last reading of the epoch,
 * as the share cache does, then not at all: a file taken offline or a password set elsewhere
 * meanwhile must not be served here for ever.
 */
const cache = epochCache<Site | null>({ name: 'site-cache', epoch: EPOCH.hosting, maxEntries: 10_000, staleAfterMs: GUEST_CACHE_STALE_MS, onForget: mirrorSiteGeneration });
// The hosted front answers from replies derived from these sites: it follows both at once.
onEpochRead(EPOCH.hosting, mirrorSitesRead);

/** When the hosting epoch was last read, for a front attached later (lib/http/hosted-front.ts). */
export const sitesReadAt = (rt: Runtime): number => epochReadAt(rt, EPOCH.hosting);

/** Changes whenever cached sites are dropped: anything derived from them is stale then. */
export const siteGeneration = (rt: Runtime): number => cache.generation(rt);

/** Whether what was derived from cached sites (lib/http/guest/reply-cache.ts) may still be served. */
export const sitesFresh = (rt: Runtime): boolean => cache.fresh(rt);

export const getSite = (rt: Runtime, slug: string, deployId?: string): Promise<Site | null> =>
  cache.get(rt, deployId ? `${slug}@${deployId}` : slug, () => fetchSite(rt, slug, deployId));

async function fetchSite(rt: Runtime, slug: string, deployId?: string): Promise<Site | null> {
  const loaded = await loadSite(rt.db, slug, deployId);
  if (!loaded) return null;
  const files = new Map<string, SiteFile>();
  const online = new Set<string>();
  for (const f of loaded.files) {
    if (f.status !== 'online') continue;
    // The rule files are the server's to read, never a guest's (API.md).
    if (RULE_FILES.includes(f.path)) {
      online.add(f.path);
      continue;
    }
    files.set(f.path, {
      id: f.id,
      path: f.path,
      storageKey: f.storageKey,
      size: Number(f.size),
      contentType: f.contentType,
      tag: createHash('sha1').update(f.storageKey).digest('base64url').slice(0, 16),
      encodings: new Map(parseEncodings(f.encodings).map((e) => [e.encoding, e.size])),
      immutable: hasContentHash(f.path),
      updatedAt: f.updatedAt,
    });
  }
  return {
    slug,
    deployId: loaded.deployId,
    createdAt: loaded.project.createdAt,
    passwordHash: loaded.project.passwordHash,
    spa: loaded.project.spa,
    allowDotfiles: loaded.project.allowDotfiles,
    files,
    indexPath: pickIndex([...files.keys()]),
    // A rule file taken offline takes its rules with it.
    rules: compileSiteRules({
      redirects: online.has(REDIRECTS_FILE) ? ((loaded.rules?.redirects as RedirectRule[] | null) ?? null) : null,
      headers: online.has(HEADERS_FILE) ? ((loaded.rules?.headers as HeaderBlock[] | null) ?? null) : null,
    }),
  };
}

/** index.html at the root, else the first HTML file in path order. */
export function pickIndex(paths: string[]): string | null {
  if (paths.includes('index.html')) return 'index.html';
  return [...paths].sort().find((p) => /\.html?$/i.test(p)) ?? null;
}
