import { expect, test } from '@playwright/test';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

const unique = () => `e2e${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/**
 * Passkeys in Chromium with its virtual authenticator (CDP WebAuthn domain): a platform
 * authenticator with resident keys and user verification, as a laptop's fingerprint reader.
 * The console is reached as `localhost` (an IP address cannot be a WebAuthn RP ID).
 */
test('a member adds a passkey in Settings, signs out, signs in with it, and removes it', async ({ page }) => {
  const base = process.env.E2E_BASE_URL!.replace('127.0.0.1', 'localhost');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });

  const username = unique();
  const password = 'a good long password';
  await page.goto(`${base}/files`);
  // The tab answers once the page is hydrated (slow on a busy machine): click until it is selected.
  await expect(async () => {
    await page.getByRole('tab', { name: 'Register' }).click();
    await expect(page.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true', { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(username);

  await page.getByRole('button', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { name: 'Passkeys' })).toBeVisible();
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByLabel('Name for the new passkey').fill('Test laptop');
  await page.getByRole('button', { name: 'Create passkey' }).click();
  const rows = page.getByTestId('passkey-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Test laptop');
  await expect(rows.first()).toContainText('never used');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0].isResidentCredential).toBe(true);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(username);
  await page.reload();
  await expect(page.getByTestId('signed-in-as')).toHaveText(username);

  await page.getByRole('button', { name: 'Profile' }).click();
  await expect(page.getByTestId('session-row').filter({ hasText: 'This session' })).toContainText('Signed in with passkey');
  await expect(rows.first()).toContainText('last used');

  await page.getByRole('button', { name: 'Rename passkey Test laptop' }).click();
  await page.getByLabel('Passkey name').fill('Work laptop');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(rows.first()).toContainText('Work laptop');

  // The last one: a wrong password is refused, the right one removes it.
  await page.getByRole('button', { name: 'Remove passkey Work laptop' }).click();
  await page.getByLabel('Your current password').fill('not my password');
  await page.getByRole('button', { name: 'Remove with password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /password/i })).toBeVisible();
  await expect(rows).toHaveCount(1);
  await page.getByLabel('Your current password').fill(password);
  await page.getByRole('button', { name: 'Remove with password' }).click();
  await expect(rows).toHaveCount(0);
  await expect(page.getByText('No passkeys yet.')).toBeVisible();

  // The authenticator still holds the credential; the server no longer knows it.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'That passkey is not known here.' })).toBeVisible();
});
