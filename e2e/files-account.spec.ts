import { expect, test } from '@playwright/test';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

const unique = () => `e2e${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test('a member registers, sees the quota bar, edits the profile, signs out and in, and deletes the account', async ({ page }) => {
  const username = unique();
  await page.goto('/files');
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Name (optional)').fill('Erin Example');
  await page.getByLabel('Password').fill('a good long password');
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page.getByTestId('signed-in-as')).toHaveText('Erin Example');
  const quota = page.getByTestId('quota');
  await expect(quota).toContainText('0 B of');
  await expect(quota.getByRole('meter', { name: 'Storage quota' })).toBeVisible();
  await expect(page.getByTestId('quota-free')).toHaveText('50 MB free');

  await page.getByRole('button', { name: 'Profile' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Erin Renamed');
  await page.getByLabel('Phone').fill('+1 555 0100');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Profile saved.' })).toBeVisible();
  await expect(page.getByTestId('signed-in-as')).toHaveText('Erin Renamed');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('tab', { name: 'Log in' })).toBeVisible();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('a good long password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText('Erin Renamed');
  await page.reload();
  await expect(page.getByTestId('signed-in-as')).toHaveText('Erin Renamed');

  await page.getByRole('button', { name: 'Profile' }).click();
  const del = page.getByRole('button', { name: 'Delete my account' });
  await expect(del).toBeDisabled();
  await page.getByLabel(/Type your username/).fill(username);
  await del.click();
  await expect(page.getByRole('tab', { name: 'Log in' })).toBeVisible();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('a good long password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Wrong username or password' })).toBeVisible();
});

test('the administrator changes a member quota and sees it', async ({ page, request }) => {
  const username = unique();
  const created = await request.post('/api/users', {
    headers: { Authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}` },
    data: { username, password: 'member password' },
  });
  expect(created.status()).toBe(201);

  await page.goto('/files');
  await page.getByRole('tab', { name: 'Administrator' }).click();
  await page.getByLabel('Admin Token').fill(process.env.E2E_ADMIN_TOKEN!);
  await page.getByRole('button', { name: 'Sign in as administrator' }).click();
  await page.getByRole('button', { name: 'Users' }).click();
  const row = page.getByTestId(`user-${username}`);
  await expect(row).toContainText('0 B / 50 MB');
  await row.getByRole('button', { name: `Edit ${username}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Quota (MB or GB)').fill('2 GB');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByTestId('user-quota')).toHaveText('0 B / 2.0 GB');

  // The member sees the new quota in their own bar.
  const ctx = await page.context().browser()!.newContext({ baseURL: process.env.E2E_BASE_URL });
  const member = await ctx.newPage();
  await member.goto('/files');
  await member.getByLabel('Username').fill(username);
  await member.getByLabel('Password').fill('member password');
  await member.getByRole('button', { name: 'Log in' }).click();
  await expect(member.getByTestId('quota')).toContainText('0 B of 2.0 GB');
  await ctx.close();
});

test('a refresh still on its way when a member signs out neither signs them back in nor empties the form they type in', async ({ page }) => {
  const username = unique();
  await page.goto('/files');
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('a good long password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(username);

  // Saving the profile asks the server who is signed in (GET /api/auth/me); that answer is held
  // back until the member has signed out and started typing in the sign-in form.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let heldOne = false;
  await page.route('**/api/auth/me', async (route) => {
    if (heldOne) return route.continue();
    heldOne = true;
    const answer = await route.fetch();
    await held;
    await route.fulfill({ response: answer });
  });
  await page.getByRole('button', { name: 'Profile' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Late Answer');
  const asked = page.waitForRequest('**/api/auth/me');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await asked;
  await page.getByRole('button', { name: 'Sign out' }).click();
  // The sign-in form, not the profile's own Username field while the sign-out is on its way.
  await expect(page.getByRole('tab', { name: 'Log in' })).toBeVisible();
  await page.getByLabel('Username').fill(username);
  const landed = page.waitForResponse('**/api/auth/me');
  release();
  await landed;
  // Two frames: the page has handled that answer and drawn what it does with it.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.getByLabel('Password').fill('a good long password');

  // Still signed out, and what was typed is still there.
  await expect(page.getByTestId('signed-in-as')).toHaveCount(0);
  await expect(page.getByLabel('Username')).toHaveValue(username);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText('Late Answer');
});
