import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { randomIp } from './http';

/**
 * A real OpenID provider (panva's oidc-provider) in the test's own process, on port 0: one
 * confidential client, PKCE required, accounts the test sets (claims: sub, email, groups…), and
 * a minimal interaction that signs in the account the "browser" names (`?account=`) and grants
 * every scope asked for. The issuer URL is known before the htmls server starts (its
 * OIDC_ISSUER); the client's redirect URI only after — hence `configure()` once both run.
 */
export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The claims each account id signs in with. */
  accounts: Map<string, Record<string, unknown>>;
  /** The account a browser that names none signs in as (a real browser cannot add `?account=`). */
  defaultAccount?: string;
  configure(redirectUri: string): void;
  close(): Promise<void>;
}

export async function startProvider(): Promise<TestProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const server: Server = createServer((req, res) => {
    if (!handler) {
      res.statusCode = 503;
      res.end('not configured yet');
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'htmls-test';
  const clientSecret = 'a-test-client-secret-of-some-length';
  const accounts = new Map<string, Record<string, unknown>>();
  const idp: TestProvider = {
    issuer,
    clientId,
    clientSecret,
    accounts,
    configure(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], response_types: ['code'], grant_types: ['authorization_code'] }],
        pkce: { required: () => true },
        scopes: ['openid', 'profile', 'email', 'groups'],
        claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email', 'email_verified'], groups: ['groups'] },
        findAccount: (_ctx, id) => {
          const claims = accounts.get(id);
          return claims ? { accountId: id, claims: () => ({ ...claims, sub: id }) } : undefined;
        },
        features: { devInteractions: { enabled: false } },
        interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
        cookies: { keys: ['oidc-test-cookie-key'] },
      });
      const callback = provider.callback();
      handler = (req, res) => {
        const url = new URL(req.url ?? '/', issuer);
        if (!url.pathname.startsWith('/interaction/')) return callback(req, res);
        void (async () => {
          const details = await provider.interactionDetails(req, res);
          const accountId = url.searchParams.get('account') ?? idp.defaultAccount ?? '';
          const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
          grant.addOIDCScope(String(details.params.scope));
          const grantId = await grant.save();
          await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
        })().catch((err: Error) => {
          res.statusCode = 500;
          res.end(err.message);
        });
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return idp;
}

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
