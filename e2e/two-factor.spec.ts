import { expect, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

const unique = () => `e2e${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const codeAt = (secret: string, at = Date.now()) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });

test('a member turns on two-factor sign-in in Settings, keeps the recovery codes, and signs in with a code', async ({ page }) => {
  const username = unique();
  const password = 'a good long password';
  await page.goto('/files');
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(username);

  await page.getByRole('button', { name: 'Profile' }).click();
  await expect(page.getByTestId('session-row').filter({ hasText: 'This session' })).toBeVisible();
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await expect(page.getByRole('img', { name: /QR code to add this account/ })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  await page.getByLabel('Code from the app').fill(codeAt(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await page.getByRole('button', { name: 'I saved them' }).click();
  await expect(page.getByRole('heading', { name: /Two-factor sign-in/ })).toContainText('On');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('tab', { name: 'Log in' })).toBeVisible();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  // A wrong code first: said, and no session.
  await page.getByLabel('Code from your authenticator app').fill(String((Number(codeAt(secret)) + 1) % 1e6).padStart(6, '0'));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'That code is not right' })).toBeVisible();
  await page.getByLabel('Code from your authenticator app').fill(codeAt(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(username);
  await page.reload();
  await expect(page.getByTestId('signed-in-as')).toHaveText(username);

  // Turning it off asks for the password.
  await page.getByRole('button', { name: 'Profile' }).click();
  await page.getByRole('button', { name: 'Turn off…' }).click();
  await page.getByLabel('Your current password').fill('not my password');
  await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /password/i })).toBeVisible();
  await page.getByLabel('Your current password').fill(password);
  await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
  await expect(page.getByRole('heading', { name: /Two-factor sign-in/ })).toContainText('Off');
});
