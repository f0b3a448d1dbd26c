import 'server-only';
import { onEpochBump, readEpoch, type EpochKey } from '@/db/queries/settings';
import { perRuntime, type Runtime } from './runtime';

/**
 * Cross-instance invalidation for the guest caches (hosted sites, share items): every change a
 * guest could see bumps a counter in the database in the change's own transaction; each
 * instance on PostgreSQL polls the counter 4 times a second and calls `onMove` when it moved,
 * so another instance's change shows here within ~250 ms. PGlite has one process: no poll.
 * While the database is unreachable nothing is dropped, and guests keep being served.
 * A move made here has dropped the caches as it committed (db/queries/settings.ts bumpEpoch):
 * the poll learns its value then, and does not drop them again when it reads it (the entries
 * loaded in between would go, and a site deployed a moment before the database went away
 * would not be served from memory).
 */
const POLL_MS = 250;
type Watch = { ready: Promise<void>; readAt: number; timer?: NodeJS.Timeout };
/** Each service's watches, and what each key's move calls there (the site cache and the domain index share one). */
const watchesOf = perRuntime(() => ({ state: new Map<EpochKey, Watch>(), movers: new Map<EpochKey, Set<() => void>>() }));
/** Told of every reading, whichever service's (the hosted front's mirror: one per process). */
const readers = new Map<EpochKey, (rt: Runtime, at: number) => void>();

/** `fn` learns the time of every reading of `key` by any service (Infinity on PGlite: no poll, always current). */
export function onEpochRead(key: EpochKey, fn: (rt: Runtime, at: number) => void): void {
  readers.set(key, fn);
}

/** When `key` was last read (0: not watched yet). */
export const epochReadAt = (rt: Runtime, key: EpochKey): number => watchesOf(rt).state.get(key)?.readAt ?? 0;

/**
 * Starts the poll of `key` once per service and adds `onMove` to what a move calls (each
 * watcher of the key, not only the first); resolves after the first reading.
 */
export function watchEpoch(rt: Runtime, key: EpochKey, onMove: () => void): Promise<void> {
  const { state, movers } = watchesOf(rt);
  let told = movers.get(key);
  if (!told) movers.set(key, (told = new Set()));
  told.add(onMove);
  const running = state.get(key);
  if (running) return running.ready;
  if (!rt.env.databaseUrl) {
    // One process: every change is made here, and drops the caches itself.
    const none = { ready: Promise.resolve(), readAt: Infinity };
    state.set(key, none);
    readers.get(key)?.(rt, Infinity);
    return none.ready;
  }
  const watch: Watch = { ready: Promise.resolve(), readAt: 0 };
  let seen: bigint | null = null;
  // Counters only grow: a reading older than a move made here meanwhile is no move.
  const learn = (value: string) => {
    const epoch = BigInt(value);
    if (seen !== null && epoch <= seen) return false;
    seen = epoch;
    return true;
  };
  onEpochBump(rt.db, key, learn);
  let polling = false;
  const poll = async () => {
    // A database that hangs rather than refuses: one reading at a time, not one per tick.
    if (polling) return;
    polling = true;
    try {
      if (learn(await readEpoch(rt.db, key))) {
        for (const moved of movers.get(key) ?? []) moved();
      }
      watch.readAt = Date.now();
      readers.get(key)?.(rt, watch.readAt);
    } catch {
      // The database is away: keep what we have, and look again.
    } finally {
      polling = false;
    }
  };
  watch.ready = poll().finally(() => void (watch.timer = setInterval(() => void poll(), POLL_MS).unref()));
  state.set(key, watch);
  return watch.ready;
}

/**
 * True while `key`'s last reading is at most `maxAgeMs` old (always on PGlite): a cache that
 * must not outlive a revocation by more than that (a share taken offline or given a password
 * while this instance cannot reach the database) stops answering from memory after it.
 */
export const readRecently = (rt: Runtime, key: EpochKey, maxAgeMs: number) => Date.now() - (watchesOf(rt).state.get(key)?.readAt ?? 0) <= maxAgeMs;

/** At shutdown: no poll of a closed database. */
export function stopEpochWatches(rt: Runtime): void {
  const { state } = watchesOf(rt);
  for (const w of state.values()) clearInterval(w.timer);
  state.clear();
}
