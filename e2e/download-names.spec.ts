import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { createMember, createShare } from './support/seed';
import { consoleHeader, useConsoleSession } from './support/console-session';
import { DOWNLOAD_NAMES } from '../tests/support/download-names';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

/**
 * Chromium's own download saves the exact name from Content-Disposition
 * (filename* when the name is not plain ASCII, the ASCII filename otherwise).
 */
const NAMES: Record<string, string> = DOWNLOAD_NAMES;

/** What Chromium itself does to a name whatever the server sends (its own safety rules). */
const CHROMIUM_RENAMES: Record<string, string> = {
  // Chromium never saves a hidden file: it trims the leading dot.
  dot: 'env',
  // Chromium replaces `"` (not allowed in names on every platform it supports) with `_`.
  quotes: `say _hi_ it's.txt`,
};

test('Chromium downloads share items under their exact names', async ({ page }) => {
  const member = await createMember();
  const files: Record<string, Buffer> = {};
  for (const [k, name] of Object.entries(NAMES)) files[name] = Buffer.from(`${k}\n`);
  const share = await createShare(member.token, files);
  await page.goto(`/f/${share.id}`);
  for (const [k, name] of Object.entries(NAMES)) {
    const href = `/f/${share.id}/${encodeURIComponent(name)}?download=1`;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.evaluate((url) => {
        const a = document.createElement('a');
        a.href = url;
        document.body.append(a);
        a.click();
        a.remove();
      }, href),
    ]);
    expect([k, download.suggestedFilename()]).toEqual([k, CHROMIUM_RENAMES[k] ?? name]);
    expect(readFileSync((await download.path())!, 'utf8').trim()).toBe(k);
  }
});

test('the owner sees download counts in /files and sets a download limit; guests then see the limit on the page and get the limit page for a file', async ({ page, context, browser }) => {
  const member = await createMember('Counting Person');
  const share = await createShare(member.token, { 'report.pdf': Buffer.from('%PDF-1.4 tiny'), 'notes.txt': Buffer.from('notes') }, { note: 'Counted share' });
  const guest = await browser.newContext();
  const guestPage = await guest.newPage();
  for (const file of ['report.pdf', 'report.pdf', 'notes.txt']) {
    const r = await guestPage.request.get(`/f/${share.id}/${file}`);
    expect(r.status()).toBe(200);
  }

  await useConsoleSession(context, member);
  // Counts are written about once a second.
  await expect
    .poll(async () => ((await (await page.request.get('/api/shares', { headers: consoleHeader(member) })).json()).shares as { id: string; download_count: number }[]).find((s) => s.id === share.id)?.download_count)
    .toBe(3);
  const row = page.getByTestId(`share-${share.id}`);
  await page.goto('/files#shares');
  await expect(row.getByTestId('downloads')).toHaveText('3 downloads');
  await row.getByText('Downloads per file').click();
  await expect(row.getByText('notes.txt: 1')).toBeVisible();
  await expect(row.getByText('report.pdf: 2')).toBeVisible();

  await row.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('dialog').getByLabel(/Download limit/).fill('3');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByTestId('downloads')).toHaveText('3 downloads of 3 allowed');
  await expect(row.getByText('download limit reached')).toBeVisible();

  // The share page still opens and says why its buttons are off; a file's link is the limit page.
  await guestPage.goto(`/f/${share.id}`);
  await expect(guestPage.getByTestId('download-limit')).toContainText('can no longer be downloaded');
  await expect(guestPage.getByRole('button', { name: 'Download notes.txt: no downloads are left' })).toBeDisabled();
  await guestPage.goto(`/f/${share.id}/notes.txt`);
  await expect(guestPage.getByRole('heading', { name: 'Download limit reached' })).toBeVisible();
  await guest.close();
});

test('a download limit set when creating a share reaches the server', async ({ page, context }) => {
  const member = await createMember('Limit Person');
  await useConsoleSession(context, member);
  await page.goto('/files');
  await page.getByTestId('file-input').first().setInputFiles([{ name: 'limited.txt', mimeType: 'text/plain', buffer: Buffer.from('limited') }]);
  await page.getByLabel('Note (optional)').first().fill('Limited share');
  await page.getByLabel('Download limit (optional)').first().fill('2');
  await page.getByRole('button', { name: 'Upload and create link' }).first().click();
  await expect
    .poll(async () => ((await (await page.request.get('/api/shares', { headers: consoleHeader(member) })).json()).shares as { note: string; max_downloads: number | null }[]).find((s) => s.note === 'Limited share')?.max_downloads)
    .toBe(2);
  await expect(page.getByText('0 downloads of 2 allowed')).toBeVisible();
});
