import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { ownClientAddress } from './support/client-address';

/**
 * Issue 27, Build 4: what the reporter did on a first day, end to end in Chromium, so
 * none of it can come back. The administrator publishes an untouched `npm create vite` build
 * from the console and opens it by the console's link; a member shares a photo, a text and a
 * phone-style MP4 with a generated password and a download limit of 1; a guest unlocks it,
 * sees the previews, downloads once and is refused the second time; the member sees it counted.
 */
test.use({ extraHTTPHeaders: ownClientAddress() });

const base = () => process.env.E2E_BASE_URL!;
/** Committed as `npm create vite` built them (scripts/vite-fixtures.sh): base '/', root-absolute paths. */
const VANILLA = path.join(import.meta.dirname, 'fixtures', 'vite-builds', 'vanilla');
/** The react-ts template with React Router 7 (createBrowserRouter, no basename), built untouched. */
const REACT_ROUTER = path.join(import.meta.dirname, 'fixtures', 'vite-builds', 'react-router');
const MEDIA = path.join(import.meta.dirname, 'fixtures', 'media');
const NOTES = 'Day 1: the beach.\nDay 2: the museum.\n';

/** Requests of other origins than the console's that failed or answered 400 or more. */
function failures(context: BrowserContext): string[] {
  const failed: string[] = [];
  // The console's own requests aside (Next's prefetches are cancelled when a tab closes).
  const ours = (url: string) => new URL(url).origin !== new URL(base()).origin;
  context.on('requestfailed', (r) => {
    if (ours(r.url())) failed.push(`${r.failure()?.errorText} ${r.url()}`);
  });
  context.on('response', (r) => {
    if (r.status() >= 400 && ours(r.url())) failed.push(`${r.status()} ${r.url()}`);
  });
  return failed;
}

/** The member's files, named as a phone would name them, in a folder of their own. */
function memberFiles(): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'htmls-first-day-'));
  copyFileSync(path.join(MEDIA, 'photo.jpg'), path.join(dir, 'photo.jpg'));
  copyFileSync(path.join(MEDIA, 'moov-at-end.mp4'), path.join(dir, 'clip.mp4'));
  writeFileSync(path.join(dir, 'notes.txt'), NOTES);
  return ['photo.jpg', 'notes.txt', 'clip.mp4'].map((n) => path.join(dir, n));
}

/** Until the video has read its metadata (its 4 s duration, from the moov at the end). */
async function metadataRead(page: Page) {
  await expect.poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => (v.readyState >= 1 ? Math.round(v.duration) : -1))).toBe(4);
}

test('first day: an untouched Vite build published from the console runs by its link; a share with a generated password and a limit of 1 is previewed, downloaded once, refused the second time, and counted', async ({ browser }) => {
  test.setTimeout(300_000);

  // 1. The administrator signs in at /htmls, publishes the build as a folder, opens the link.
  const admin = await browser.newContext({ extraHTTPHeaders: ownClientAddress() });
  const failed = failures(admin);
  const consolePage = await admin.newPage();
  await consolePage.goto(`${base()}/htmls`);
  await consolePage.getByLabel('Admin Token').fill(process.env.E2E_ADMIN_TOKEN!);
  await consolePage.getByRole('button', { name: 'Sign in' }).click();
  await expect(consolePage.getByRole('heading', { name: 'Publish a site' })).toBeVisible();
  await consolePage.getByTestId('site-folder-input').setInputFiles(VANILLA);
  await expect(consolePage.getByTestId('site-picked')).toBeVisible();
  await consolePage.getByRole('button', { name: 'Publish' }).click();
  const siteLink = consolePage.getByTestId('site-link');
  await expect(siteLink).toBeVisible();
  // Nothing in an untouched build is flagged: it works as it is.
  await expect(consolePage.getByTestId('site-warning')).toHaveCount(0);
  const [site] = await Promise.all([consolePage.waitForEvent('popup'), siteLink.click()]);
  await site.waitForLoadState('load');
  const url = new URL(site.url());
  // On the default setup, reached as a loopback name: the project's own origin, at its root.
  expect(url.host).toMatch(/^[a-z0-9_-]+\.localhost:\d+$/);
  expect(url.pathname).toBe('/');
  // The app rendered (its module script ran) and works; its CSS, images and /icons.svg arrived.
  await expect(site.getByRole('heading', { name: 'Get started' })).toBeVisible();
  await site.getByRole('button', { name: /Count is 0/ }).click();
  await expect(site.getByRole('button', { name: /Count is 1/ })).toBeVisible();
  await expect.poll(() => site.evaluate(() => document.images.length > 0 && [...document.images].every((i) => i.complete && i.naturalWidth > 0))).toBe(true);
  expect(failed).toEqual([]);
  await admin.close();

  // 2. A member registers at /files and shares three files with a generated password and a limit of 1.
  const member = await browser.newContext({ extraHTTPHeaders: ownClientAddress(), permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await member.newPage();
  await page.goto(`${base()}/files`);
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Username').fill(`firstday${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`);
  await page.getByLabel('Password').fill('a first-day password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
  await page.getByTestId('file-input').setInputFiles(memberFiles());
  await expect(page.getByText('3 files')).toBeVisible();
  await page.getByLabel('Note (optional)').fill('First day');
  await page.getByRole('button', { name: 'Generate' }).click();
  const password = await page.getByLabel('Password (optional)').inputValue();
  expect(password).toMatch(/^\S{16}$/);
  await page.getByLabel('Download limit (optional)').fill('1');
  await page.getByRole('button', { name: 'Upload and create link' }).click();
  await expect(page.getByText('Your link is ready')).toBeVisible({ timeout: 60_000 });
  const shown = page.getByTestId('generated-password');
  await expect(shown.locator('code')).toHaveText(password);
  await shown.getByRole('button', { name: 'Copy password' }).click();
  await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(password);
  const link = (await page.getByTestId('share-link').textContent())!;
  // Shown once: the server keeps only its hash.
  await page.reload();
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
  await expect(page.locator('[data-testid^="share-"]').filter({ hasText: 'First day' })).toBeVisible();
  await expect(page.getByText(password)).toHaveCount(0);

  // 3. A guest opens the link, unlocks with the copied password, and sees the previews.
  const guestContext = await browser.newContext({ extraHTTPHeaders: ownClientAddress() });
  const guest = await guestContext.newPage();
  const guestRequests: string[] = [];
  guest.on('request', (r) => {
    // The share's items (the unlock form posts to the share's address too).
    if (r.method() === 'GET' && r.url().startsWith(`${link}/`)) guestRequests.push(r.url());
  });
  expect((await guest.goto(link))!.status()).toBe(401);
  await expect(guest.getByText('This shared link is protected.')).toBeVisible();
  await guest.getByLabel('Password').fill(copied);
  await guest.getByRole('button', { name: 'Unlock' }).click();
  await expect(guest.getByRole('heading', { name: 'First day' })).toBeVisible();
  await expect(guest.getByTestId('download-limit')).toContainText('1 download left');
  await expect.poll(() => guest.locator('img').evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(64);
  await expect(guest.locator('pre')).toHaveText(NOTES);
  await metadataRead(guest);
  // Every preview asked for ?preview, which never counts: after them, still one left.
  expect(guestRequests.length).toBeGreaterThanOrEqual(3);
  expect(guestRequests.filter((u) => !u.endsWith('?preview'))).toEqual([]);
  await guest.reload();
  await expect(guest.getByTestId('download-limit')).toContainText('1 download left');
  await metadataRead(guest);

  // One real download through the Download button.
  const [download] = await Promise.all([guest.waitForEvent('download'), guest.getByRole('link', { name: 'Download photo.jpg' }).click()]);
  expect(download.suggestedFilename()).toBe('photo.jpg');
  expect(readFileSync((await download.path())!).equals(readFileSync(path.join(MEDIA, 'photo.jpg')))).toBe(true);

  // The second attempt, from the page as it was: refused, and the guest is told why.
  await guest.getByRole('link', { name: 'Download notes.txt' }).click();
  await expect(guest.getByRole('heading', { name: 'Download limit reached' })).toBeVisible();
  await guest.goto(link);
  await expect(guest.getByTestId('download-limit')).toContainText('can no longer be downloaded');
  await expect(guest.getByRole('button', { name: 'Download photo.jpg: no downloads are left' })).toBeDisabled();
  await expect(guest.getByRole('button', { name: /^Download all/ })).toBeDisabled();
  // Fetched directly: 410 with a readable reason, for the other files and the ZIP...
  for (const target of ['notes.txt', 'clip.mp4', '?zip']) {
    const refused = await guest.request.get(`${link}/${target}`);
    expect(refused.status(), target).toBe(410);
    expect(await refused.text(), target).toMatch(/download limit/i);
  }
  // ...and for the photo too, once the guest's download ticket (which lets that one download
  // resume, docs/downloads.md) is gone: a fresh byte 0 without it is another download.
  await guestContext.clearCookies({ name: 'htmls_dl' });
  expect((await guest.request.get(`${link}/photo.jpg`)).status()).toBe(410);
  // The previews still show.
  await expect(guest.locator('pre')).toHaveText(NOTES);
  await guestContext.close();

  // 4. The member's list shows the download counted: 1 of 1.
  await page.reload();
  const row = page.locator('[data-testid^="share-"]').filter({ hasText: 'First day' });
  await expect(row.getByTestId('downloads')).toHaveText('1 download of 1 allowed');
  await expect(row.getByText('download limit reached')).toBeVisible();
  await member.close();
});

test('first day: an untouched React Router build published on the default setup runs by its link; a deep link loads, reloads and goes Back', async ({ browser }) => {
  test.setTimeout(180_000);
  const admin = await browser.newContext({ extraHTTPHeaders: ownClientAddress() });
  const failed = failures(admin);
  const consolePage = await admin.newPage();
  await consolePage.goto(`${base()}/htmls`);
  await consolePage.getByLabel('Admin Token').fill(process.env.E2E_ADMIN_TOKEN!);
  await consolePage.getByRole('button', { name: 'Sign in' }).click();
  await consolePage.getByTestId('site-folder-input').setInputFiles(REACT_ROUTER);
  await expect(consolePage.getByTestId('site-picked')).toBeVisible();
  await consolePage.getByLabel('Single-page app', { exact: false }).check();
  await consolePage.getByRole('button', { name: 'Publish' }).click();
  const siteLink = consolePage.getByTestId('site-link');
  await expect(siteLink).toBeVisible();
  // The project has an origin of its own here: nothing to change in the build, nothing to warn of.
  await expect(consolePage.getByTestId('site-warning')).toHaveCount(0);
  const [site] = await Promise.all([consolePage.waitForEvent('popup'), siteLink.click()]);
  await site.waitForLoadState('load');
  const origin = new URL(site.url()).origin;
  expect(new URL(site.url()).pathname).toBe('/');
  await expect(site.getByTestId('route')).toHaveText('Home page');
  await expect(site.getByRole('heading', { name: 'Get started' })).toBeVisible();

  // A route by the router, then a deep link opened directly, reloaded, and Back.
  await site.getByRole('link', { name: 'About' }).click();
  await expect(site.getByTestId('route')).toHaveText('About page');
  expect(new URL(site.url()).pathname).toBe('/about');
  await site.goto(`${origin}/users/42`);
  await expect(site.getByTestId('route')).toHaveText('User 42');
  await site.reload();
  await expect(site.getByTestId('route')).toHaveText('User 42');
  await site.goBack();
  await expect(site.getByTestId('route')).toHaveText('About page');
  expect(new URL(site.url()).pathname).toBe('/about');
  await site.goBack();
  await expect(site.getByTestId('route')).toHaveText('Home page');
  // The console's own link form, /p/<slug>/users/42 on the main origin, lands on the same page.
  const slug = new URL(origin).hostname.split('.')[0];
  await site.goto(`${base()}/p/${slug}/users/7`);
  expect(site.url()).toBe(`${origin}/users/7`);
  await expect(site.getByTestId('route')).toHaveText('User 7');
  expect(failed).toEqual([]);
  await admin.close();
});
