import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { makeZip } from '../tests/support/zip';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

test('the console publishes a .zip (unpacked on the server) and says when a site has no HTML page', async ({ page, browser }) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'htmls-e2e-zip-'));
  const zip = path.join(dir, 'site.zip');
  writeFileSync(zip, makeZip([{ name: 'site/index.html', data: '<!doctype html><title>Zipped</title><link rel="stylesheet" href="css/a.css"><h1>From a zip</h1>' }, { name: 'site/css/a.css', data: 'h1{color:rgb(0, 128, 0)}' }]));
  const notes = path.join(dir, 'notes.txt');
  writeFileSync(notes, 'just text');

  await page.goto('/htmls');
  await page.getByLabel('Admin Token').fill(process.env.E2E_ADMIN_TOKEN!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();

  await page.getByTestId('site-files-input').setInputFiles(zip);
  await expect(page.getByTestId('site-picked')).toContainText('site.zip (unpacked on the server)');
  await page.getByRole('button', { name: 'Publish' }).click();
  const link = page.getByTestId('site-link');
  await expect(link).toBeVisible();
  await expect(page.getByTestId('site-no-html')).toHaveCount(0);
  const guest = await (await browser.newContext()).newPage();
  await guest.goto((await link.getAttribute('href'))!);
  await expect(guest.getByRole('heading', { name: 'From a zip' })).toHaveCSS('color', 'rgb(0, 128, 0)');

  await page.getByTestId('site-files-input').setInputFiles(notes);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByTestId('site-no-html')).toContainText('no HTML page');
  await guest.goto((await page.getByTestId('site-link').getAttribute('href'))!);
  await expect(guest.getByRole('link', { name: 'notes.txt' })).toBeVisible();
});
