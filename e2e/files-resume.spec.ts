import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { gateChunks } from './support/chunk-gate';
import { ownClientAddress } from './support/client-address';
import { logInToFiles } from './support/console-session';

test.use({ extraHTTPHeaders: ownClientAddress() });

test('an upload cut by a reload and then by a killed tab resumes from the same folder, sending each part once, to byte-identical files', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const username = `resume${Date.now().toString(36)}`;
  const created = await request.post('/api/users', {
    headers: { Authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}` },
    data: { username, password: 'member password', quota_bytes: 1024 ** 3 },
  });
  expect(created.status()).toBe(201);

  // A folder of three files: one of two parts (48 MB + 12 MB through the server), two small.
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'htmls-resume-')), 'trip');
  mkdirSync(path.join(dir, 'notes'), { recursive: true });
  writeFileSync(path.join(dir, 'big.bin'), randomBytes(60 * 1024 * 1024));
  writeFileSync(path.join(dir, 'small.bin'), randomBytes(300 * 1024));
  writeFileSync(path.join(dir, 'notes', 'readme.txt'), 'Hello from the trip');

  // No service worker: Playwright's routing (the gate) does not see what one would handle.
  const context = await browser.newContext({ extraHTTPHeaders: ownClientAddress(), serviceWorkers: 'block' });
  // A slow link, made deterministic: `allow` parts go through, the next one waits forever.
  const gate = await gateChunks(context);

  const page = await context.newPage();
  await logInToFiles(page, { username, password: 'member password' });
  await page.getByTestId('folder-input').setInputFiles(dir);
  await expect(page.getByText('3 files')).toBeVisible();
  await page.getByLabel('Note (optional)').fill('Resumable trip');
  await page.getByRole('button', { name: 'Upload and create link' }).click();
  await expect.poll(() => gate.held.length, { timeout: 60_000 }).toBe(1);

  // A reload while bytes are in flight: the page asks first.
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.type());
    void d.accept();
  });
  await page.reload();
  expect(dialogs).toContain('beforeunload');
  const row = page.locator('[data-testid^="share-"]').filter({ hasText: 'Resumable trip' });
  await expect(row.getByText('upload unfinished')).toBeVisible();
  await expect(page.getByText('An upload was interrupted.')).toBeVisible();
  // The quota meter counts what the unfinished upload holds.
  await expect(page.getByTestId('quota-free')).toContainText('held by unfinished uploads');

  // Resume by picking the folder again; one more part goes through, then the tab is killed.
  gate.allow = 1;
  await row.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByTestId('resume-dialog')).toContainText('3 files');
  await page.getByTestId('resume-folder-input').setInputFiles(dir);
  await expect(page.getByText('Resuming an interrupted upload')).toBeVisible();
  await expect.poll(() => gate.held.length, { timeout: 60_000 }).toBe(2);
  await page.close();

  // A new tab: resume again, and let everything through.
  // A new tab of the same browser: still signed in.
  const tab = await context.newPage();
  await tab.goto('/files');
  const again = tab.locator('[data-testid^="share-"]').filter({ hasText: 'Resumable trip' });
  await expect(again.getByText('upload unfinished')).toBeVisible();
  gate.allow = Infinity;
  await again.getByRole('button', { name: 'Resume' }).click();
  // The dialog is whole (this tab's IndexedDB record read, its files listed) before the pick:
  // a pick made while it still renders can land on an input that is then replaced.
  await expect(tab.getByTestId('resume-dialog')).toContainText('3 files');
  await expect(tab.getByTestId('resume-dialog').getByRole('listitem')).toHaveCount(3);
  await tab.getByTestId('resume-folder-input').setInputFiles(dir);
  await expect(again.getByText('online')).toBeVisible({ timeout: 90_000 });
  await expect(tab.getByTestId('quota-free')).not.toContainText('held by unfinished uploads');

  // Four parts in all, each sent exactly once across the three tabs' lives.
  const parts = `sent through the gate: ${gate.sent.join(', ')}; requested by the browser: ${gate.seen.join(', ')}`;
  expect(gate.sent, parts).toHaveLength(4);
  expect(new Set(gate.sent).size, parts).toBe(4);
  const link = await again.getByRole('link', { name: 'Resumable trip' }).getAttribute('href');
  for (const file of ['big.bin', 'small.bin', 'notes/readme.txt']) {
    const res = await request.get(`${link}/trip/${file}`);
    expect(res.status()).toBe(200);
    expect(Buffer.from(await res.body()).equals(readFileSync(path.join(dir, file))), file).toBe(true);
  }
  await context.close();
});

test("the administrator aborts a member's unfinished upload from /files; the member's quota is freed at once", async ({ page, request }) => {
  const username = `held${Date.now().toString(36)}`;
  const password = 'member password';
  expect((await request.post('/api/users', { headers: { Authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}` }, data: { username, password, quota_bytes: 10 * 1024 * 1024 } })).status()).toBe(201);
  const token = (await (await request.post('/api/auth/login', { data: { username, password } })).json()).token as string;
  const member = { Authorization: `Bearer ${token}` };
  const init = await request.post('/api/shares/upload/init', { headers: member, data: { note: 'Stuck upload', files: [{ clientPath: 'a.bin', size: 8 * 1024 * 1024 }] } });
  expect(init.status()).toBe(201);
  const tooBig = await request.post('/api/shares/upload/init', { headers: member, data: { files: [{ clientPath: 'b.bin', size: 5 * 1024 * 1024 }] } });
  expect((await tooBig.json()).error).toContain('8.0 MB is held by an unfinished upload');

  await page.goto('/files');
  await page.getByRole('tab', { name: 'Administrator' }).click();
  await page.getByLabel('Admin Token').fill(process.env.E2E_ADMIN_TOKEN!);
  await page.getByRole('button', { name: 'Sign in as administrator' }).click();
  const row = page.locator('[data-testid^="share-"]').filter({ hasText: 'Stuck upload' });
  await expect(row).toContainText(`by ${username}`);
  await expect(row.getByRole('button', { name: 'Resume' })).toHaveCount(0);
  await row.getByRole('button', { name: 'Abort upload' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Abort upload' }).click();
  await expect(row).toHaveCount(0);
  const retry = await request.post('/api/shares/upload/init', { headers: member, data: { files: [{ clientPath: 'b.bin', size: 5 * 1024 * 1024 }] } });
  expect(retry.status()).toBe(201);
});
