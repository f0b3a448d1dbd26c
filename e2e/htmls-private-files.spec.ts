import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { writeTree } from '../tests/support/write-tree';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

test('the console leaves .git/, .env* and node_modules/ of a picked folder home, says so, and sends them only when ticked', async ({ page, request }) => {
  const site = path.join(mkdtempSync(path.join(os.tmpdir(), 'htmls-e2e-private-')), 'working-copy');
  writeTree(site, {
    'index.html': '<!doctype html><title>wc</title><h1>Working copy</h1>',
    'css/app.css': 'h1{}',
    '.git/config': '[remote "origin"] url = https://ghp_secret@github.example/x',
    '.env': 'API_KEY=secret',
    'node_modules/lib/index.js': 'x',
  });
  const slug = `priv-${Date.now().toString(36)}`;
  const files = async () => {
    // The list is paged and carries no files: the project's detail has its live deploy's files.
    const r = await request.get(`/api/projects/${slug}`, { headers: { Authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}` } });
    expect(r.status()).toBe(200);
    const body = await r.json();
    return (body.project.files as { path: string }[]).map((f) => f.path).sort();
  };

  // The name check of a free name is no 404 in the console (it was, on every publish).
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto('/htmls');
  await page.getByLabel('Admin Token').fill(process.env.E2E_ADMIN_TOKEN!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();

  const folder = page.getByTestId('site-folder-input');
  await expect(folder).toHaveAttribute('webkitdirectory', '');
  await folder.setInputFiles(site);
  await expect(page.getByTestId('site-picked')).toContainText('2 files');
  const note = page.getByTestId('site-private-note');
  await expect(note).toBeVisible();
  await expect(note).toContainText('3 private files left out (.git, .env…, node_modules)');
  await page.getByLabel('Name in the URL (optional)').fill(slug);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByTestId('site-link')).toBeVisible();
  expect(await files()).toEqual(['css/app.css', 'index.html']);
  expect(errors.filter((t) => /404|Failed to load/.test(t))).toEqual([]);

  // Ticked: the same folder goes up whole, as a new version.
  await folder.setInputFiles(site);
  await note.getByRole('checkbox').check();
  await expect(page.getByTestId('site-picked')).toContainText('5 files');
  await expect(note).toContainText('Publishing dotfiles and node_modules');
  await page.getByLabel('Name in the URL (optional)').fill(slug);
  await expect(page.getByRole('radio', { name: /New version of/ })).toBeChecked();
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByTestId('site-link')).toBeVisible();
  await expect.poll(files).toEqual(['.env', '.git/config', 'css/app.css', 'index.html', 'node_modules/lib/index.js']);
});
