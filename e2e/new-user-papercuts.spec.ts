import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { gateChunks } from './support/chunk-gate';
import { ownClientAddress } from './support/client-address';
import { consoleHeader, logInToFiles } from './support/console-session';
import { createMember } from './support/seed';

/** Issue 27, items 4 and 6: what a new user met in the /files console, the guest pages and the directory. */
test.use({ extraHTTPHeaders: ownClientAddress() });

function file(name: string, data: Buffer): string {
  const p = path.join(mkdtempSync(path.join(os.tmpdir(), 'htmls-papercuts-')), name);
  writeFileSync(p, data);
  return p;
}

const myShares = async (page: Page, m: { id: string }) => (await (await page.request.get('/api/shares', { headers: consoleHeader(m) })).json()).shares as { id: string; note: string; upload_state: string }[];

test('a generated password is shown once with Copy; a past expiry date is not submitted; the lock badge is an SVG icon', async ({ browser }) => {
  const m = await createMember();
  const context = await browser.newContext({ extraHTTPHeaders: ownClientAddress(), permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  await logInToFiles(page, m);
  await page.getByTestId('file-input').setInputFiles(file('notes.txt', Buffer.from('secret notes')));

  // A date typed past the field's minimum: refused before anything is sent.
  await page.locator('#expiry-date').fill('2020-01-01');
  await page.getByRole('button', { name: 'Upload and create link' }).click();
  await expect(page.getByText('That expiry date has passed. Choose today or a later day.')).toBeVisible();
  await expect(page.locator('#expiry-date')).toHaveAttribute('aria-invalid', 'true');
  expect(await myShares(page, m)).toEqual([]);

  await page.getByRole('button', { name: '7 days' }).click();
  await page.getByLabel('Note (optional)').fill('Locked notes');
  await page.getByRole('button', { name: 'Generate' }).click();
  const password = await page.getByLabel('Password (optional)').inputValue();
  expect(password).toMatch(/^\S{16}$/);
  await page.getByRole('button', { name: 'Upload and create link' }).click();
  await expect(page.getByText('Your link is ready')).toBeVisible();
  const shown = page.getByTestId('generated-password');
  await expect(shown).toContainText('shown only now');
  await expect(shown.locator('code')).toHaveText(password);
  await shown.getByRole('button', { name: 'Copy password' }).click();
  await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
  // The password shown is the share's: it unlocks the link.
  const link = await page.getByTestId('share-link').getAttribute('href');
  const guest = await browser.newContext();
  const g = await guest.newPage();
  await g.goto(link!);
  await expect(g.getByText('This shared link is protected.')).toBeVisible();
  await g.getByLabel('Password').fill(password);
  await g.getByRole('button', { name: 'Unlock' }).click();
  await expect(g.getByText('notes.txt').first()).toBeVisible();
  await guest.close();

  // The list's password badge: an SVG lock, no emoji (which rendered as an empty box without an emoji font).
  const row = page.locator('[data-testid^="share-"]').filter({ hasText: 'Locked notes' });
  await expect(row.locator('svg[data-icon="lock"]')).toBeVisible();
  expect(await row.textContent()).not.toMatch(/🔒/u);
  // Another upload with a typed password: nothing is shown back.
  await page.getByTestId('file-input').setInputFiles(file('other.txt', Buffer.from('other')));
  await page.getByLabel('Password (optional)').fill('typed by me');
  await page.getByRole('button', { name: 'Upload and create link' }).click();
  await expect(page.getByText('Your link is ready')).toBeVisible();
  await expect(page.getByTestId('generated-password')).toHaveCount(0);
  await context.close();
});

test('Pause keeps the parts sent and Continue finishes in the same tab without picking the files again; Cancel asks first', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const m = await createMember();
  const context = await browser.newContext({ extraHTTPHeaders: ownClientAddress(), serviceWorkers: 'block' });
  // A slow link, made deterministic: `allow` parts go through, the next one waits until paused.
  const gate = await gateChunks(context);
  const page = await context.newPage();
  await logInToFiles(page, m);

  // Two parts through the server (48 MB + 12 MB): the first arrives, the second is in flight.
  const data = randomBytes(60 * 1024 * 1024);
  await page.getByTestId('file-input').setInputFiles(file('film.bin', data));
  await page.getByLabel('Note (optional)').fill('Paused film');
  await page.getByRole('button', { name: 'Upload and create link' }).click();
  await expect.poll(() => gate.held.length, { timeout: 90_000 }).toBe(1);

  // The list follows the running upload (no stale "0 of 2 parts uploaded").
  const row = page.locator('[data-testid^="share-"]').filter({ hasText: 'Paused film' });
  await expect(row).toContainText('uploading now:');
  await expect(row).not.toContainText('parts uploaded');

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByTestId('upload-paused')).toContainText('Paused at 48 MB of 60 MB');
  await expect(page.getByRole('button', { name: 'Upload and create link' })).toHaveCount(0);
  const [pending] = (await myShares(page, m)).filter((s) => s.upload_state === 'pending');
  const status = await request.post('/api/shares/upload/status', { headers: { Authorization: `Bearer ${m.token}` }, data: { groupId: pending.id } });
  expect(status.status(), await status.text()).toBe(200);
  expect((await status.json()).files[0].parts.map((p: { partNumber: number }) => p.partNumber)).toEqual([1]);

  gate.allow = Infinity;
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Your link is ready')).toBeVisible({ timeout: 90_000 });
  // Each part went over the wire once: the stored one was not sent again.
  expect(gate.sent).toHaveLength(2);
  expect(new Set(gate.sent).size).toBe(2);
  const link = await page.getByTestId('share-link').getAttribute('href');
  expect((await myShares(page, m)).find((s) => s.id === pending.id)?.upload_state).toBe('complete');
  const got = await request.get(`${link}/film.bin`);
  expect(Buffer.from(await got.body()).equals(data)).toBe(true);

  // Cancel: a confirmation first, like Discard; "Keep uploading" keeps it going.
  gate.allow = 0;
  await page.getByTestId('file-input').setInputFiles(file('small.bin', randomBytes(1024)));
  await page.getByRole('button', { name: 'Upload and create link' }).click();
  await expect.poll(() => gate.held.length, { timeout: 60_000 }).toBe(2);
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Cancel this upload?');
  await dialog.getByRole('button', { name: 'Keep uploading' }).click();
  await expect(page.getByTestId('upload-progress')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await dialog.getByRole('button', { name: 'Cancel upload' }).click();
  await expect(page.getByText('Upload cancelled. Nothing was kept.')).toBeVisible();
  await expect.poll(async () => (await myShares(page, m)).filter((s) => s.upload_state === 'pending')).toEqual([]);
  await context.close();
});

test('a locked site: marked in the directory; its password page asks for no missing icon; /files and /htmls link to each other', async ({ page, request }) => {
  const admin = { Authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}` };
  const slug = `locked-${Date.now().toString(36)}`;
  const up = await request.post('/api/upload', {
    headers: admin,
    multipart: { slug, note: 'A locked site', password: 'site password 1', file: { name: 'index.html', mimeType: 'text/html', buffer: Buffer.from('<h1>in</h1>') } },
  });
  expect(up.status()).toBe(201);

  await page.goto(`/?q=${slug}`);
  const entry = page.getByRole('link', { name: new RegExp(slug) });
  await expect(entry.getByTestId('locked')).toContainText('password');
  await expect(entry.locator('svg[data-icon="lock"]')).toBeVisible();

  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400 && r.request().resourceType() !== 'document') failed.push(`${r.status()} ${r.url()}`);
  });
  page.on('requestfailed', (r) => failed.push(`failed ${r.url()}`));
  const res = await page.goto(`/p/${slug}/`);
  expect(res!.status()).toBe(401);
  await expect(page.getByRole('heading', { name: 'Password required' })).toBeVisible();
  // Every icon the page names loads where the page is (the hosted origin has no /favicon.ico).
  const icons = await page.locator('link[rel~="icon"]').evaluateAll((links) => links.map((l) => (l as HTMLLinkElement).href));
  expect(icons.length).toBeGreaterThan(0);
  for (const href of icons) {
    if (!href.startsWith('data:')) expect((await page.request.get(href)).status(), href).toBe(200);
  }
  expect(failed).toEqual([]);

  await page.goto('/files');
  await page.getByRole('tab', { name: 'Administrator' }).click();
  await page.getByLabel('Admin Token').fill(process.env.E2E_ADMIN_TOKEN!);
  await page.getByRole('button', { name: 'Sign in as administrator' }).click();
  await page.getByRole('link', { name: 'Hosting' }).click();
  await expect(page).toHaveURL(/\/htmls$/);
  if (await page.getByLabel('Admin Token').isVisible()) {
    await page.getByLabel('Admin Token').fill(process.env.E2E_ADMIN_TOKEN!);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.getByRole('link', { name: 'Files', exact: true }).click();
  await expect(page).toHaveURL(/\/files$/);
  await expect(page.getByTestId('signed-in-as')).toHaveText('Administrator');
});
