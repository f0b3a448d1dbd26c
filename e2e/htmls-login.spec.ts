import { expect, test } from '@playwright/test';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

test('the administrator signs in to /htmls with the Admin Token and out again', async ({ page }) => {
  await page.goto('/htmls');
  await expect(page.getByRole('heading', { name: 'Hosting console' })).toBeVisible();

  await page.getByLabel('Admin Token').fill('definitely-wrong');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'not right' })).toBeVisible();

  await page.getByLabel('Admin Token').fill(process.env.E2E_ADMIN_TOKEN!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();

  // The session survives a reload: it is a real HttpOnly cookie.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'htmls_admin_session')?.httpOnly).toBe(true);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Hosting console' })).toBeVisible();
});

test('/admin redirects to /htmls', async ({ page }) => {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/htmls$/);
});
