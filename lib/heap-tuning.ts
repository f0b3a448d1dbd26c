import { setFlagsFromString } from 'node:v8';

/**
 * Lets V8's old generation grow to twice its live size before the next full collection.
 *
 * Once the server has been idle a while, V8's memory reducer shrinks the heap, and from then on
 * its own limit stays so close to the live heap that incremental marking starts with nearly
 * every young-generation collection: a large upload then runs full Mark-Compacts back to back,
 * at about twice the CPU time and well under the rate (docs/performance.md has the figures).
 * With the factor fixed at 2 the same upload runs almost none. The cost is a heap that may hold
 * up to twice its live data between collections.
 *
 * V8 reads the flag whenever it sets a new limit, so setting it at start is enough.
 */
export function tuneHeap(): void {
  setFlagsFromString('--heap-growing-percent=100');
}
