import { afterAll, beforeAll } from 'vitest';
import { baseUrl, useFileServer } from './file-server';
import { randomIp } from './http';
import { startProvider, type TestProvider } from './oidc-provider';

export { startProvider, type TestProvider };

/**
 * A browser as far as the sign-in needs one: cookies per origin (paths ignored, Max-Age=0
 * deletes), redirects followed by hand, one client address for its whole life.
 */
export class Browser {
  readonly jar = new Map<string, Map<string, string>>();
  readonly ip = randomIp();

  cookieHeader(origin: string): string {
    return [...(this.jar.get(origin) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(origin)?.get(name);
  }

  setCookie(origin: string, name: string, value: string): void {
    if (!this.jar.has(origin)) this.jar.set(origin, new Map());
    this.jar.get(origin)!.set(name, value);
  }

  /** One request, no redirect followed; the answer's cookies stored. */
  async get(url: string, headers: Record<string, string> = {}): Promise<Response> {
    const origin = new URL(url).origin;
    const cookie = this.cookieHeader(origin);
    const res = await fetch(url, { redirect: 'manual', headers: { 'X-Forwarded-For': this.ip, ...(cookie ? { Cookie: cookie } : {}), ...headers } });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const gone = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (!this.jar.has(origin)) this.jar.set(origin, new Map());
      if (gone) this.jar.get(origin)!.delete(name);
      else this.jar.get(origin)!.set(name, value);
    }
    await res.arrayBuffer();
    return res;
  }

  /**
   * Follows redirects from `url` until one leads to `stopAt`'s origin and path prefix (not
   * requested), or a non-redirect answer. `rewrite` may change each URL before it is requested
   * (a provider or an attacker tampering with the way). Returns the URL it stopped at.
   */
  async follow(url: string, opts: { stopAt?: (u: URL) => boolean; rewrite?: (u: URL) => URL; headers?: (u: URL) => Record<string, string> } = {}): Promise<{ url: URL; res: Response | null }> {
    let next = new URL(url);
    for (let hops = 0; hops < 20; hops++) {
      if (opts.rewrite) next = opts.rewrite(next);
      if (hops > 0 && opts.stopAt?.(next)) return { url: next, res: null };
      const res = await this.get(next.href, opts.headers?.(next) ?? {});
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { url: next, res };
      next = new URL(location, next);
    }
    throw new Error('too many redirects');
  }
}

/**
 * The test file's server (useFileServer) signed in to through a real OpenID provider started
 * here: the provider runs first (its issuer is part of the server's settings, besides `settings`),
 * learns the server's callback once the server listens, and stops after it. Gives the provider,
 * once the file's beforeAll hooks ran.
 */
export function useOidcFileServer(settings: Record<string, string>): () => TestProvider {
  let idp: TestProvider | undefined;
  const env = { ...settings };
  beforeAll(async () => {
    idp = await startProvider();
    Object.assign(env, { OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret });
  });
  useFileServer(env);
  beforeAll(() => provider().configure(`${baseUrl()}/api/auth/oidc/callback`));
  afterAll(async () => idp?.close());
  const provider = () => {
    if (!idp) throw new Error('the OpenID provider starts in beforeAll: use it inside a test or a hook');
    return idp;
  };
  return provider;
}
