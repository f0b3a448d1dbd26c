/**
 * A per-process object shared by both copies of lib/ and db/ in this process (server.ts's and Next's
 * bundle), so a cache cleared by an API route is cleared for the fast path too.
 */
export function processState<T extends object>(name: string, init: () => T): T {
  const key = Symbol.for(`htmls.${name}`);
  const g = globalThis as Record<symbol, unknown>;
  return (g[key] ??= init()) as T;
}
