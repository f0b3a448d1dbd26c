import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProvider, type TestProvider } from '../../../tests/support/oidc-provider';
import type { OidcSettings } from '../../env';
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
