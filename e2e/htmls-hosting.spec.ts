import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

/** A site folder with a stylesheet, a sub-folder image and relative links, on disk. */
function siteFolder(): string {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'htmls-e2e-site-')), 'my-site');
  mkdirSync(path.join(dir, 'css'), { recursive: true });
  mkdirSync(path.join(dir, 'img'), { recursive: true });
  mkdirSync(path.join(dir, 'docs'), { recursive: true });
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><title>E2E site</title><link rel="stylesheet" href="css/app.css"></head><body><h1>Hello from e2e</h1><img alt="dot" src="img/dot.svg" width="20" height="20"><a href="docs/guide.html">Guide</a></body></html>',
  );
  writeFileSync(path.join(dir, 'css', 'app.css'), 'h1 { color: rgb(200, 0, 0); }');
  writeFileSync(path.join(dir, 'img', 'dot.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="20" height="20" fill="teal"/></svg>');
  writeFileSync(path.join(dir, 'docs', 'guide.html'), '<html><body><p>The guide</p></body></html>');
  return dir;
}

test('the administrator publishes a folder site, guests see it, password and offline work', async ({ page, browser }) => {
  const slug = `e2e-${Date.now().toString(36)}`;
  await page.goto('/htmls');
  await page.getByLabel('Admin Token').fill(process.env.E2E_ADMIN_TOKEN!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();

  await page.getByTestId('site-folder-input').setInputFiles(siteFolder());
  await expect(page.getByTestId('site-picked')).toContainText('4 files');
  await page.getByLabel('Name in the URL (optional)').fill(slug);
  await page.getByLabel('Note (shown in the directory)').fill('An e2e <b>site</b>');
  await page.getByRole('button', { name: 'Publish' }).click();
  // Reached as a loopback name, the console links the project to an origin of its own.
  await expect(page.getByTestId('site-link')).toContainText(`http://${slug}.localhost:`);
  const card = page.getByTestId(`project-${slug}`);
  await expect(card).toContainText('4 files');

  // A guest sees the page rendered with its CSS and the sub-folder image.
  const guestCtx = await browser.newContext();
  const guest = await guestCtx.newPage();
  await guest.goto(`/p/${slug}`);
  await expect(guest).toHaveURL(new RegExp(`^http://${slug}\\.localhost:\\d+/$`));
  const h1 = guest.getByRole('heading', { name: 'Hello from e2e' });
  await expect(h1).toHaveCSS('color', 'rgb(200, 0, 0)');
  await expect.poll(() => guest.locator('img').evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(20);

  // Listed in the public directory, the note shown as text.
  await guest.goto('/');
  await expect(guest.getByRole('link', { name: new RegExp(slug) })).toBeVisible();
  await expect(guest.getByText('An e2e <b>site</b>')).toBeVisible();

  // Lock it with a password; the guest unlocks it.
  await card.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('dialog').getByLabel('Password (optional)').fill('site password');
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(card.locator('svg[data-icon="lock"]')).toBeVisible();
  const locked = await guest.goto(`/p/${slug}/index.html`);
  expect(locked!.status()).toBe(401);
  await guest.getByLabel('Password').fill('site password');
  await guest.getByRole('button', { name: 'Unlock' }).click();
  await expect(guest.getByRole('heading', { name: 'Hello from e2e' })).toBeVisible();

  // A custom domain: added in its panel, its DNS checked by the server (`.test` never resolves), removed.
  await card.getByRole('button', { name: 'Domains' }).click();
  const domains = page.getByTestId(`domains-${slug}`);
  await domains.getByLabel('Add a domain').fill(`www.${slug}.test`);
  await domains.getByRole('button', { name: 'Add' }).click();
  await expect(domains.getByRole('link', { name: `www.${slug}.test` })).toBeVisible();
  await expect(domains.getByText('DNS does not point here')).toBeVisible();
  // The resolver's code (ENOTFOUND…) said in words, not put as it is inside the sentence.
  await expect(domains).toContainText(/no address \((the name does not exist|no A or AAAA record|DNS did not answer in time|no name server reachable|the name server (failed|refused))\)/);
  await expect(card.getByRole('button', { name: 'Hide domains' })).toBeVisible();
  await domains.getByRole('button', { name: `Remove www.${slug}.test` }).click();
  await expect(domains.getByText('No custom domain')).toBeVisible();
  await card.getByRole('button', { name: 'Hide domains' }).click();

  // Every file offline: the project leaves the directory and its pages 404.
  await card.getByRole('button', { name: 'Files' }).click();
  for (const p of ['css/app.css', 'docs/guide.html', 'img/dot.svg', 'index.html']) {
    await card.getByRole('button', { name: `Take offline ${p}` }).click();
    await expect(card.getByRole('button', { name: `Put online ${p}` })).toBeVisible();
  }
  await expect(card.getByText('hidden (no file online)')).toBeVisible();
  expect((await guest.goto(`/p/${slug}/index.html`))!.status()).toBe(404);
  await guest.goto('/');
  await expect(guest.getByRole('link', { name: new RegExp(slug) })).toHaveCount(0);

  await card.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete project' }).click();
  await expect(page.getByTestId(`project-${slug}`)).toHaveCount(0);
  await guestCtx.close();
});
