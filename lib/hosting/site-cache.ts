import 'server-only';
import { loadSite } from '@/db/queries/hosting';
import { processState } from '../process-state';
import type { Runtime } from '../runtime';

export interface SiteFile {
  id: string;
  path: string;
  storageKey: string;
  size: number;
  contentType: string;
  etag: string;
  version: number;
  updatedAt: Date;
}

export interface Site {
  slug: string;
  createdAt: Date;
  passwordHash: string | null;
  /** Online files only: offline ones do not exist for guests. */
  files: Map<string, SiteFile>;
  indexPath: string | null;
}

/**
 * A second of staleness buys the hot path freedom from a query per request. Changes made on
 * this instance invalidate at once; other instances follow within the TTL.
 */
const TTL_MS = 1000;
const state = processState('site-cache', () => ({
  entries: new Map<string, { site: Site | null; at: number }>(),
  loading: new Map<string, Promise<Site | null>>(),
}));

export function invalidateSite(slug: string): void {
  state.entries.delete(slug);
}

export async function getSite(rt: Runtime, slug: string): Promise<Site | null> {
  const hit = state.entries.get(slug);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.site;
  let pending = state.loading.get(slug);
  if (!pending) {
    pending = fetchSite(rt, slug).finally(() => state.loading.delete(slug));
    state.loading.set(slug, pending);
  }
  return pending;
}

async function fetchSite(rt: Runtime, slug: string): Promise<Site | null> {
  const loaded = await loadSite(rt.db, slug);
  let site: Site | null = null;
  if (loaded) {
    const files = new Map<string, SiteFile>();
    for (const f of loaded.files) {
      if (f.status === 'online') files.set(f.path, { ...f, size: Number(f.size) });
    }
    site = {
      slug,
      createdAt: loaded.project.createdAt,
      passwordHash: loaded.project.passwordHash,
      files,
      indexPath: pickIndex([...files.keys()]),
    };
  }
  if (state.entries.size > 10_000) state.entries.clear();
  state.entries.set(slug, { site, at: Date.now() });
  return site;
}

/** index.html at the root, else the first HTML file in path order. */
export function pickIndex(paths: string[]): string | null {
  if (paths.includes('index.html')) return 'index.html';
  return [...paths].sort().find((p) => /\.html?$/i.test(p)) ?? null;
}
