import { expect, test } from '@playwright/test';
import { startProvider, type TestProvider } from '../tests/support/oidc-provider';
import { freshServiceEnv } from '../tests/support/services';
import { freePort, startServer, type RunningServer } from '../tests/support/server';
import { ownClientAddress } from './support/client-address';

// Single sign-on in Chromium against a real OpenID provider (issue 42, item 1): the button, the
// provider's round trip, and /files adopting the session the callback set.
test.use({ extraHTTPHeaders: ownClientAddress() });

let server: RunningServer;
let idp: TestProvider;
test.beforeAll(async () => {
  idp = await startProvider();
  idp.accounts.set('ada-sub', { email: 'ada@idp.example', email_verified: true, preferred_username: 'ada', name: 'Ada Lovelace' });
  idp.defaultAccount = 'ada-sub';
  const port = await freePort();
  server = await startServer({
    ...(await freshServiceEnv()),
    PORT: String(port),
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_CLIENT_SECRET: idp.clientSecret,
    OIDC_NAME: 'Test IdP',
    OIDC_SIGNUP: 'on',
  });
  idp.configure(`${server.url}/api/auth/oidc/callback`);
});
test.afterAll(async () => {
  await server?.stop();
  await idp?.close();
});

test('"Sign in with Test IdP" signs a new member in, and Settings shows the linked identity', async ({ page }) => {
  await page.goto(`${server.url}/files`);
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText('Ada Lovelace');
  // The hand-off parameter is gone from the address bar.
  expect(new URL(page.url()).search).toBe('');
  await page.goto(`${server.url}/files#profile`);
  await expect(page.getByTestId('sso-identity')).toContainText('Linked to Test IdP as ada@idp.example');
  await expect(page.getByText('This account has no password')).toBeVisible();
});

test('a hand-off this tab did not start is not adopted: the page stays signed out', async ({ page }) => {
  // The callback's redirect, as a same-site page could forge it, with no sign-in started here.
  await page.goto(`${server.url}/files?sso_account=00000000-0000-4000-8000-000000000000`);
  await expect(page.getByRole('link', { name: 'Sign in with Test IdP' })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('htmls-console-accounts'))).toBeNull();
});
