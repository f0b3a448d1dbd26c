import 'server-only';
import type { FileHandle } from 'node:fs/promises';

interface Entry {
  handle: Promise<FileHandle>;
  users: number;
  dropped: boolean;
  timer?: NodeJS.Timeout;
}

/**
 * Open read handles of the objects read most recently, so that a video player's seeks cost one
 * positional read each instead of open + read + close, three trips through libuv's thread pool
 * (docs/performance.md has the timings).
 *
 * At most `max` handles stay open, each for `idleMs` after its last use. The store forgets a key
 * whenever it writes or deletes that object (the fs store is single-instance: no other process
 * changes its files), so a read never sees an object that was replaced or deleted before it
 * started. A handle still in use when forgotten is closed by its last user.
 */
export function createReadHandles(open: (key: string) => Promise<FileHandle>, max = 64, idleMs = 5000) {
  const entries = new Map<string, Entry>();

  const close = (e: Entry) => {
    clearTimeout(e.timer);
    e.handle.then((h) => h.close()).catch(() => {});
  };

  const drop = (key: string, e: Entry) => {
    if (entries.get(key) === e) entries.delete(key);
    if (e.dropped) return;
    e.dropped = true;
    if (e.users === 0) close(e);
  };

  const forget = (prefix: string) => {
    for (const [key, e] of [...entries]) if (key.startsWith(prefix)) drop(key, e);
  };

  return {
    /** Runs fn with an open handle of key's object (opened now if none is cached). */
    async use<T>(key: string, fn: (handle: FileHandle) => Promise<T>): Promise<T> {
      let e = entries.get(key);
      if (e) {
        entries.delete(key); // re-inserted below: the map's order is the order of last use
      } else {
        const handle = open(key);
        const fresh: Entry = { handle, users: 0, dropped: false };
        handle.catch(() => drop(key, fresh));
        e = fresh;
        if (entries.size >= max) {
          const [oldestKey, oldest] = entries.entries().next().value!;
          drop(oldestKey, oldest);
        }
      }
      entries.set(key, e);
      clearTimeout(e.timer);
      e.users++;
      try {
        return await fn(await e.handle);
      } finally {
        e.users--;
        if (e.users === 0) {
          const done = e;
          if (done.dropped) close(done);
          else done.timer = setTimeout(() => drop(key, done), idleMs).unref();
        }
      }
    },
    /**
     * Runs a change of the objects whose keys start with `prefix` (or of the one object of that
     * key; a longer key that shares it loses its cached handle too, which costs only an open),
     * and forgets their cached handles before and after it: a read that starts while the change
     * runs may have cached the old file again.
     */
    async changing<T>(prefix: string, change: () => Promise<T>): Promise<T> {
      forget(prefix);
      try {
        return await change();
      } finally {
        forget(prefix);
      }
    },
  };
}
