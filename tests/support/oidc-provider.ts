import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

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
        ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
      });
      const callback = provider.callback();
      handler = (req, res) => {
        const url = new URL(req.url ?? '/', issuer);
        if (!url.pathname.startsWith('/interaction/')) {
          callback(req, res).catch((err: Error) => {
            res.statusCode = 500;
            res.end(err.message);
          });
          return;
        }
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
