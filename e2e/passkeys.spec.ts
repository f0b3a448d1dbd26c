import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

const unique = () => `e2e${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/**
 * Passkeys in Chromium with its virtual authenticator (CDP WebAuthn domain): a platform
 * authenticator with resident keys and user verification, as a laptop's fingerprint reader.
 * The console is reached as `localhost` (an IP address cannot be a WebAuthn RP ID).
 */
const codeAt = (secret: string, at = Date.now()) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });
const baseOf = () => process.env.E2E_BASE_URL!.replace('127.0.0.1', 'localhost');

/** Chromium's virtual platform authenticator on this page (CDP WebAuthn domain). */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

async function registerAccount(page: Page, username: string, password: string) {
  await page.goto(`${baseOf()}/files`);
  // The tab answers once the page is hydrated (slow on a busy machine): click until it is selected.
  await expect(async () => {
    await page.getByRole('tab', { name: 'Register' }).click();
    await expect(page.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true', { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(username);
}

async function addPasskey(page: Page, name: string) {
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByLabel('Name for the new passkey').fill(name);
  await page.getByRole('button', { name: 'Create passkey' }).click();
  await expect(page.getByTestId('passkey-row').filter({ hasText: name })).toBeVisible();
}

test('a member adds a passkey in Settings, signs out, signs in with it, and removes it', async ({ page }) => {
  const { cdp, authenticatorId } = await virtualAuthenticator(page);
  const username = unique();
  const password = 'a good long password';
  await registerAccount(page, username, password);

  await page.getByRole('button', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { name: 'Passkeys' })).toBeVisible();
  await addPasskey(page, 'Test laptop');
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

test('the two-factor screen after a password takes a passkey instead of a code', async ({ page }) => {
  await virtualAuthenticator(page);
  const username = unique();
  const password = 'a good long password';
  await registerAccount(page, username, password);
  await page.getByRole('button', { name: 'Profile' }).click();
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  await page.getByLabel('Code from the app').fill(codeAt(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.getByRole('button', { name: 'I saved them' }).click();
  await addPasskey(page, 'Laptop');

  await page.getByRole('button', { name: 'Sign out' }).click();
  // The sign-in form, not the profile's own Username field while the sign-out is on its way.
  await expect(page.getByRole('tab', { name: 'Log in' })).toBeVisible();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  await page.getByRole('button', { name: 'Use a passkey instead' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(username);
  await page.getByRole('button', { name: 'Profile' }).click();
  await expect(page.getByTestId('session-row').filter({ hasText: 'This session' })).toContainText('Signed in with password and passkey');
});
