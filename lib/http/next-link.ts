/**
 * The one way Next's bundle reaches the server's code. `server.ts` loads lib/ and db/ once and
 * installs their Next-facing surface (lib/http/next-surface.ts) before Next starts; route
 * handlers, pages and the proxy call into it through here and import nothing else of the server
 * (types only: `import type` is erased). So every cache, queue, counter and pool exists once per
 * process, as the listeners and Next see the same one. `npm run lint:next-bundle` checks that
 * Next's server output holds no server module.
 */
import type { NextSurface } from './next-surface';

const KEY = Symbol.for('htmls.next-surface');

type Handler = (req: Request, ctx?: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

/** What server.ts installed: Next never runs without it (server.ts is the one entry point). */
export function server(): NextSurface {
  const surface = (globalThis as Record<symbol, NextSurface | undefined>)[KEY];
  if (!surface) throw new Error('htmls: Next runs only inside the htmls server (server.ts), which provides its handlers');
  return surface;
}

/** server.ts's side: installs the surface Next's code reaches through server(). */
export function installSurface(surface: NextSurface): void {
  (globalThis as Record<symbol, NextSurface | undefined>)[KEY] = surface;
}

type Routes = NextSurface['routes'];

/** A route file's method: `export const GET = api('requests/[id]', 'GET')`, resolved per call. */
export function api<K extends keyof Routes>(key: K, method: keyof Routes[K] & string): Handler {
  return (req, ctx) => (server().routes[key] as unknown as Record<string, Handler>)[method](req, ctx);
}
