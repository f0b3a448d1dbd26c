import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProvider, type TestProvider } from '../../../tests/support/oidc-provider';
import type { OidcSettings } from '../../env';
import type { Runtime } from '../../runtime';
import { flowCookie, readFlow, type OidcFlow } from '../../http/oidc/flow-cookie';
import { forgetProviderConfig, providerConfig } from './provider';
import { returnToPath, withQueryParam } from './return-to';
import { SsoError } from './sso-error';

const own = 'https://files.example.com';

describe('returnToPath (return_to)', () => {
  it('keeps paths and URLs of this origin, as paths', () => {
    expect(returnToPath(undefined, own)).toBe('/files');
    expect(returnToPath('', own)).toBe('/files');
    expect(returnToPath('/files#settings', own)).toBe('/files#settings');
    expect(returnToPath('/htmls?x=1', own)).toBe('/htmls?x=1');
    expect(returnToPath(`${own}/files?a=b#c`, own)).toBe('/files?a=b#c');
  });

  it('refuses every other origin, however it is spelled', () => {
    for (const bad of ['https://evil.example/', '//evil.example/x', '/\\evil.example', '\\\\evil.example', 'http://files.example.com/', 'https://files.example.com.evil.example/', 'javascript:alert(1)', 'data:text/html,x', '/files\n', 'files', `${own}:8443/x`, `${own}//evil.example/x`]) {
      expect([bad, returnToPath(bad, own)]).toEqual([bad, null]);
    }
  });

  it('adds a parameter before the fragment', () => {
    expect(withQueryParam('/files?x=1#settings', 'sso_account', 'id')).toBe('/files?x=1&sso_account=id#settings');
  });
});

describe('the flow cookie', () => {
  const rt = { serverSecret: 'a-server-secret-of-at-least-32-characters' } as Runtime;
  const flow: OidcFlow = { state: 's', nonce: 'n', verifier: 'v', returnTo: '/files', linkUserId: null, expiresAt: Date.now() + 60_000 };
  const valueOf = (setCookie: string) => setCookie.split(';')[0];

  it('reads back what it signed, and nothing edited, expired or doubled', async () => {
    const cookie = valueOf(await flowCookie(rt, flow, false));
    expect(await readFlow(rt, cookie)).toEqual(flow);
    // Linking someone else's account by editing the cookie: the signature no longer matches.
    const [name, value] = cookie.split('=');
    const [payload, mac] = decodeURIComponent(value).split('.');
    const edited = Buffer.from(JSON.stringify({ ...flow, linkUserId: 'victim' })).toString('base64url');
    expect(await readFlow(rt, `${name}=${edited}.${mac}`)).toBeNull();
    // Its first character changed (a MAC starting with "x" kept "x…" itself: 1 run in 64 failed).
    expect(await readFlow(rt, `${name}=${payload}.${mac[0] === 'x' ? 'y' : 'x'}${mac.slice(1)}`)).toBeNull();
    expect(await readFlow(rt, `${name}=${payload}`)).toBeNull();
    expect(await readFlow(rt, cookie, flow.expiresAt)).toBeNull();
    expect(await readFlow(rt, `${cookie}; ${cookie}`)).toBeNull();
    expect(await readFlow({ serverSecret: 'another-server-secret-of-32-characters' } as Runtime, cookie)).toBeNull();
    expect(await readFlow(rt, undefined)).toBeNull();
  });
});

describe('providerConfig (discovery)', () => {
  let idp: TestProvider;
  beforeAll(async () => {
    idp = await startProvider();
    idp.configure('http://127.0.0.1:1/api/auth/oidc/callback');
  });
  afterAll(async () => idp.close());
  const settings = (issuer: string): OidcSettings => ({ issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, name: 'IdP', signup: false, only: false, scopes: 'openid' });

  it('pins the issuer: a discovery document naming another issuer is refused, and not kept', async () => {
    forgetProviderConfig();
    // The same provider reached by another name: its document says 127.0.0.1, not localhost.
    const wrong = settings(idp.issuer.replace('127.0.0.1', 'localhost'));
    await expect(providerConfig(wrong)).rejects.toEqual(new SsoError('provider_unavailable', 'The sign-in provider did not answer'));
    const right = settings(idp.issuer);
    const config = await providerConfig(right);
    expect(config.serverMetadata().issuer).toBe(idp.issuer);
    // Kept: the next sign-in does not ask again.
    expect(providerConfig(right)).toBe(providerConfig(right));
  });
});
