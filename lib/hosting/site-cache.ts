import 'server-only';
import { createHash } from 'node:crypto';
import { loadSite } from '@/db/queries/hosting';
import { EPOCH } from '@/db/queries/settings';
import { isWatching, watchEpoch } from '../epoch-watch';
import type { Encoding } from '../storage/keys';
import { processState } from '../process-state';
import type { Runtime } from '../runtime';
import { hasContentHash, parseEncodings } from './compression';

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
  /** Online files only: offline ones do not exist for guests. */
  files: Map<string, SiteFile>;
  indexPath: string | null;
}

/**
 * Sites by slug (or slug@deploy), so a hosted request costs no database round trip. Every
 * change bumps the hosting epoch (lib/epoch-watch.ts): another instance's deploy, rollback or
 * status change shows here within ~250 ms, and the instance that made the change drops its
 * cache at once. While the database is unreachable the cache stays.
 */
const state = processState('site-cache', () => ({
  gen: 0,
  entries: new Map<string, { site: Site | null; gen: number }>(),
  loading: new Map<string, Promise<Site | null>>(),
}));

/** Changes whenever cached sites are dropped: anything derived from them is stale then. */
export const siteGeneration = () => state.gen;

/** Drops every cached site on this instance (after a change made here). */
export function forgetSites(): void {
  state.gen++;
  state.entries.clear();
}

export async function getSite(rt: Runtime, slug: string, deployId?: string): Promise<Site | null> {
  const key = deployId ? `${slug}@${deployId}` : slug;
  const hit = state.entries.get(key);
  if (hit && hit.gen === state.gen && isWatching(EPOCH.hosting)) return hit.site;
  await watchEpoch(rt, EPOCH.hosting, forgetSites);
  const gen = state.gen;
  const loadKey = `${gen}:${key}`;
  let pending = state.loading.get(loadKey);
  if (!pending) {
    pending = fetchSite(rt, slug, deployId)
      .then((site) => {
        // A change that landed while this loaded makes it stale: serve it once, never cache it.
        if (gen === state.gen) {
          if (state.entries.size > 10_000) state.entries.clear();
          state.entries.set(key, { site, gen });
        }
        return site;
      })
      .finally(() => state.loading.delete(loadKey));
    state.loading.set(loadKey, pending);
  }
  return pending;
}

async function fetchSite(rt: Runtime, slug: string, deployId?: string): Promise<Site | null> {
  const loaded = await loadSite(rt.db, slug, deployId);
  if (!loaded) return null;
  const files = new Map<string, SiteFile>();
  for (const f of loaded.files) {
    if (f.status !== 'online') continue;
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
  };
}

/** index.html at the root, else the first HTML file in path order. */
export function pickIndex(paths: string[]): string | null {
  if (paths.includes('index.html')) return 'index.html';
  return [...paths].sort().find((p) => /\.html?$/i.test(p)) ?? null;
}
