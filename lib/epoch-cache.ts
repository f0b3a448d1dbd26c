import 'server-only';
import { onEpochBump, type EpochKey } from '@/db/queries/settings';
import { BoundedCache } from './bounded-cache';
import { readRecently, watchEpoch } from './epoch-watch';
import { perRuntime, type Runtime } from './runtime';

/**
 * How long an instance that cannot read the database keeps answering guests from memory: long
 * enough that a brief outage does not stop a video or a site, short enough that a share or a
 * site taken offline or given a password elsewhere stops here soon after (issue 22, finding 7).
 */
export const GUEST_CACHE_STALE_MS = 10_000;

export interface EpochCacheOptions<V> {
  /** What it caches (for diagnostics). */
  name: string;
  /** The database counter every change to what the cache holds bumps (lib/epoch-watch.ts). */
  epoch: EpochKey;
  /** The least recently used entry goes first past this many. */
  maxEntries: number;
  /**
   * Without a reading of the epoch for this long (the database unreachable from this instance
   * only), entries are not used. Unset: they serve for as long as the database is away.
   */
  staleAfterMs?: number;
  /** Whether a loaded value may be kept (default: all). A value not kept serves its one request. */
  keep?: (value: V) => boolean;
  /** Told the new generation whenever a service's entries are dropped. */
  onForget?: (rt: Runtime, generation: number) => void;
}

export interface EpochCache<V> {
  /** The cached value of `key`, or `load()`'s (one load per key at a time). */
  get(rt: Runtime, key: string, load: () => Promise<V>): Promise<V>;
  /** Changes whenever entries are dropped: anything derived from them is stale then. */
  generation(rt: Runtime): number;
  /** Whether entries may be used now (false past `staleAfterMs` without a reading of the epoch). */
  fresh(rt: Runtime): boolean;
}

/**
 * A guest cache of database rows, so the hosted and share byte paths cost no database round
 * trip in the steady state. Every change a guest could see bumps `epoch` in its own
 * transaction: another instance's change empties this cache within ~250 ms, this instance's as
 * the transaction commits (bumpEpoch's after-commit hook). A load that a change overtook serves
 * its request and is never kept.
 */
export function epochCache<V>(opts: EpochCacheOptions<V>): EpochCache<V> {
  // Each service's entries, dropped by its own database's moves.
  const stateOf = perRuntime((rt) => {
    const state = {
      gen: 0,
      entries: new BoundedCache<string, V>({ maxEntries: opts.maxEntries }),
      loading: new Map<string, Promise<V>>(),
      forget: () => {
        state.gen++;
        state.entries.clear();
        opts.onForget?.(rt, state.gen);
      },
    };
    // A change made here drops the entries once its transaction commits (db/transaction.ts).
    onEpochBump(rt.db, opts.epoch, state.forget);
    return state;
  });
  // An entry exists only once the epoch is watched: without a staleness limit it is fresh.
  const fresh = (rt: Runtime) => opts.staleAfterMs === undefined || readRecently(rt, opts.epoch, opts.staleAfterMs);

  return {
    async get(rt, key, load) {
      const state = stateOf(rt);
      // forget() empties the map as it moves gen: what is in it is current.
      if (state.entries.has(key) && fresh(rt)) return state.entries.get(key)!;
      await watchEpoch(rt, opts.epoch, state.forget);
      const gen = state.gen;
      const loadKey = `${gen}:${key}`;
      let pending = state.loading.get(loadKey);
      if (!pending) {
        pending = load()
          .then((value) => {
            if (gen === state.gen && (opts.keep?.(value) ?? true)) state.entries.set(key, value);
            return value;
          })
          .finally(() => state.loading.delete(loadKey));
        state.loading.set(loadKey, pending);
      }
      return pending;
    },
    generation: (rt) => stateOf(rt).gen,
    fresh,
  };
}
