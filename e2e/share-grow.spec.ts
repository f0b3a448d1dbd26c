import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { gateChunks } from './support/chunk-gate';
import { ownClientAddress } from './support/client-address';
import { logInToFiles } from './support/console-session';
import { createMember, createShare } from './support/seed';

test.use({ extraHTTPHeaders: ownClientAddress() });

/** Shares that grow (issue 24, item 5), from /files: a folder added to a published share, one file removed. */

test('a member adds a folder to a published share; the guest sees every file, then no longer the one removed', async ({ page, browser }) => {
  const m = await createMember();
  await logInToFiles(page, m);
  await expect(page.getByText('No shares yet.')).toBeVisible();
  await page.getByTestId('file-input').first().setInputFiles([{ name: 'first.txt', mimeType: 'text/plain', buffer: Buffer.from('the first file') }]);
  await page.getByLabel('Note (optional)').fill('Growing album');
  await page.getByRole('button', { name: 'Upload and create link' }).click();
  const link = page.getByTestId('share-link');
  await expect(link).toBeVisible({ timeout: 60_000 });
  const id = new URL((await link.textContent())!).pathname.split('/').pop()!;
  const row = page.getByTestId(`share-${id}`);
  await expect(row).toContainText('1 file ·');

  // Open the share's files, then Add files with "Choose folder".
  await row.getByText('Files (1)').click();
  await expect(row.getByTestId('item-row')).toHaveCount(1);
  await row.getByRole('button', { name: 'Add files' }).click();
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'htmls-e2e-grow-')), 'more');
  mkdirSync(path.join(dir, 'deep'), { recursive: true });
  writeFileSync(path.join(dir, 'second.txt'), 'the second file');
  writeFileSync(path.join(dir, 'deep', 'third.txt'), 'the third file');
  writeFileSync(path.join(dir, 'video.bin'), Buffer.alloc(20 * 1024 * 1024, 7));
  await row.getByTestId('add-folder-input').setInputFiles(dir);
  await expect(row.getByText('3 files · 20 MB')).toBeVisible();
  await row.getByRole('button', { name: 'Add 3 files' }).click();
  await expect(row.getByTestId('upload-progress')).toBeVisible();
  await expect(row.getByRole('status').filter({ hasText: 'Added 3 files. Guests now see all 4 files.' })).toBeVisible({ timeout: 60_000 });
  await expect(row.getByTestId('item-row')).toHaveCount(4);
  await expect(row.getByText('Files (4)')).toBeVisible();
  await expect(row).toContainText('4 files ·');
  await expect(row.getByTestId('item-row').filter({ hasText: 'more/deep/third.txt' })).toBeVisible();
  await expect(page.getByTestId('quota')).toContainText('20 MB of 1.0 GB');

  // A guest in another browser context sees all four.
  const guestCtx = await browser.newContext();
  const guest = await guestCtx.newPage();
  await guest.goto(`/f/${id}`);
  for (const name of ['first.txt', 'second.txt', 'third.txt', 'video.bin']) await expect(guest.getByRole('link', { name: `Download ${name}`, exact: true })).toBeVisible();
  expect(await (await guest.request.get(`/f/${id}/more/second.txt`)).text()).toBe('the second file');

  // Remove one, with the confirm step, from the keyboard.
  await row.getByRole('button', { name: 'Remove more/second.txt' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Remove “more/second.txt”?');
  await dialog.getByRole('button', { name: 'Remove file' }).click();
  await expect(row.getByRole('status').filter({ hasText: 'Removed “more/second.txt”' })).toBeVisible();
  await expect(row.getByTestId('item-row')).toHaveCount(3);
  await expect(row.getByText('Files (3)')).toBeVisible();

  await guest.reload();
  await expect(guest.getByRole('link', { name: 'Download third.txt', exact: true })).toBeVisible();
  await expect(guest.getByRole('link', { name: 'Download second.txt', exact: true })).toHaveCount(0);
  expect((await guest.request.get(`/f/${id}/more/second.txt`)).status()).toBe(404);
  await guestCtx.close();
});

test('an addition cut by a reload resumes as an addition: only the missing parts, then guests see the files', async ({ browser }) => {
  test.setTimeout(240_000);
  const m = await createMember();
  const share = await createShare(m.token, { 'first.txt': Buffer.from('the first file') }, { note: 'Resumable album' });
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'htmls-e2e-grow-')), 'late');
  mkdirSync(dir, { recursive: true });
  // Two parts through the server (48 MB + 12 MB) and a small file.
  writeFileSync(path.join(dir, 'big.bin'), randomBytes(60 * 1024 * 1024));
  writeFileSync(path.join(dir, 'small.txt'), 'small');

  const context = await browser.newContext({ extraHTTPHeaders: ownClientAddress(), serviceWorkers: 'block' });
  // `allow` parts go through, the next one waits until the page goes.
  const gate = await gateChunks(context);
  const page = await context.newPage();
  await logInToFiles(page, m);
  const row = page.getByTestId(`share-${share.id}`);
  await row.getByText('Files (1)').click();
  await row.getByRole('button', { name: 'Add files' }).click();
  await row.getByTestId('add-folder-input').setInputFiles(dir);
  await row.getByRole('button', { name: 'Add 2 files' }).click();
  await expect.poll(() => gate.held.length, { timeout: 60_000 }).toBe(1);
  await expect(row).toContainText('adding files:');

  page.on('dialog', (d) => void d.accept());
  await page.reload();
  const again = page.getByTestId(`share-${share.id}`);
  const interrupted = again.getByTestId('interrupted-addition');
  await expect(interrupted).toContainText('Adding 2 files to this share was interrupted');
  // The share itself is untouched: one file for guests, no pending share in the list.
  await expect(again).toContainText('1 file ·');
  expect((await page.request.get(`/f/${share.id}/late/small.txt`)).status()).toBe(404);

  gate.allow = Infinity;
  await interrupted.getByRole('button', { name: 'Resume adding' }).click();
  await page.getByTestId('resume-folder-input').setInputFiles(dir);
  await expect(again).toContainText('3 files ·', { timeout: 90_000 });
  await expect(again.getByTestId('interrupted-addition')).toHaveCount(0);
  // Each part sent exactly once across both page lives.
  expect(new Set(gate.sent).size).toBe(gate.sent.length);
  expect(gate.sent.length).toBe(3);
  const res = await page.request.get(`/f/${share.id}/late/big.bin`);
  expect(Buffer.from(await res.body()).equals(readFileSync(path.join(dir, 'big.bin')))).toBe(true);
  await context.close();
});
