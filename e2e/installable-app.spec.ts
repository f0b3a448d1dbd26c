import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { createMember } from './support/seed';
import { useConsoleSession } from './support/console-session';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

/**
 * The consoles as installable apps, in a real (non-incognito) Chromium profile: Chromium's own
 * installability check, the service worker in control, the offline state, and the share target.
 */
let context: BrowserContext;
let profile: string;

test.beforeEach(async () => {
  profile = mkdtempSync(path.join(os.tmpdir(), 'htmls-e2e-profile-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    baseURL: process.env.E2E_BASE_URL,
    viewport: { width: 390, height: 844 },
  });
});

test.afterEach(async () => {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
});

async function openControlled(page: Page, path: string) {
  await page.goto(path);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** What Android's share sheet sends: a multipart POST of files and a title to the manifest's action. */
async function postShare(page: Page, action: string) {
  await page.evaluate((action) => {
    const form = Object.assign(document.createElement('form'), { method: 'post', action, enctype: 'multipart/form-data' });
    const input = Object.assign(document.createElement('input'), { type: 'file', name: 'files', multiple: true });
    const dt = new DataTransfer();
    dt.items.add(new File(['a photo'], 'image.jpg', { type: 'image/jpeg' }));
    dt.items.add(new File(['another photo'], 'image.jpg', { type: 'image/jpeg' }));
    dt.items.add(new File([new Uint8Array(300_000).fill(9)], 'VID_0002.mp4', { type: 'video/mp4' }));
    input.files = dt.files;
    const title = Object.assign(document.createElement('input'), { name: 'title', value: 'Beach day' });
    form.append(input, title);
    document.body.append(form);
    form.submit();
  }, action);
}

/** Signs in with a session from the API (the login form has its own tests and a rate limit). */
async function signIn(page: Page) {
  const member = await createMember('Phone Person');
  await useConsoleSession(context, member);
  await page.reload();
  await expect(page.getByTestId('signed-in-as')).toHaveText('Phone Person');
}

for (const app of ['/files', '/htmls']) {
  test(`GET ${app} — Chromium finds the app installable: manifest fetched and valid, service worker in control`, async () => {
    const page = context.pages()[0] ?? (await context.newPage());
    await openControlled(page, app);
    expect(await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL)).toMatch(/\/sw\.js$/);
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.scope)).toMatch(new RegExp(`${app}$`));
    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.url).toMatch(new RegExp(`${app}/manifest\\.webmanifest$`));
    expect(manifest.errors).toEqual([]);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
  });
}

test('GET /files — offline: the app says so, a reload shows the offline page, and it recovers', async () => {
  const page = context.pages()[0] ?? (await context.newPage());
  await openControlled(page, '/files');
  await signIn(page);
  await context.setOffline(true);
  await expect(page.getByRole('status').filter({ hasText: 'You are offline' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
  await context.setOffline(false);
  await page.getByRole('link', { name: 'Try again' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText('Phone Person');
  await expect(page.getByRole('status').filter({ hasText: 'You are offline' })).toHaveCount(0);
});

test('POST /files/share-target — files from the share sheet land in the Upload panel, upload with the worker active, and never enter the cache', async () => {
  const page = context.pages()[0] ?? (await context.newPage());
  await openControlled(page, '/files');
  await signIn(page);
  await postShare(page, '/files/share-target');
  // At 390 px the phone layout: the share sheet opens the Upload tab.
  await expect(page.getByRole('tab', { name: 'Upload' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('3 files')).toBeVisible();
  await expect(page).toHaveURL(/\/files$/);
  await expect(page.getByText('image (2).jpg')).toBeVisible();
  await expect(page.getByLabel('Note (optional)')).toHaveValue('Beach day');
  await page.getByRole('button', { name: 'Upload and create link' }).click();
  const link = page.getByTestId('share-link');
  await expect(link).toBeVisible({ timeout: 60_000 });

  const guest = await context.newPage();
  await guest.goto((await link.textContent())!);
  await expect(guest.getByRole('heading', { name: 'Beach day' })).toBeVisible();
  await expect(guest.getByRole('link', { name: 'Download VID_0002.mp4' })).toBeVisible();

  // The worker kept only the shell: no API answer, page or shared file is in any cache.
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(`${name} ${new URL(req.url).pathname}`);
    return urls;
  });
  expect(cached.length).toBeGreaterThan(0);
  for (const entry of cached) expect(entry).toMatch(/^htmls-shell-files (\/_next\/static\/|\/icons\/|\/favicon\.ico$|\/offline$)/);
});

test('POST /files/share-target — a form on another site cannot fill the Upload panel', async () => {
  const page = context.pages()[0] ?? (await context.newPage());
  await openControlled(page, '/files');
  await signIn(page);
  // localhost and 127.0.0.1 are two origins: a page on the other one posts to our share target.
  const other = new URL(process.env.E2E_BASE_URL!);
  other.hostname = other.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  await page.goto(new URL('/user-guide.html', other).toString());
  await postShare(page, new URL('/files/share-target', process.env.E2E_BASE_URL!).toString());
  await expect(page).toHaveURL(/\/files$/);
  await expect(page.getByTestId('signed-in-as')).toHaveText('Phone Person');
  await page.getByRole('tab', { name: 'Shares' }).click();
  await expect(page.getByText('No shares yet.')).toBeVisible();
  await expect(page.getByText('3 files')).toHaveCount(0);
  expect(await page.evaluate(async () => (await (await caches.open('htmls-share-target')).keys()).length)).toBe(0);
});

test('POST /files/share-target — a form on another site that sends no referrer cannot fill the Upload panel either', async () => {
  const page = context.pages()[0] ?? (await context.newPage());
  await openControlled(page, '/files');
  await signIn(page);
  const other = new URL(process.env.E2E_BASE_URL!);
  other.hostname = other.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  await page.goto(new URL('/user-guide.html', other).toString());
  // What the attack page of issue 22 (finding 6) does: no Referer, and an Origin of "null".
  await page.evaluate(() => document.head.append(Object.assign(document.createElement('meta'), { name: 'referrer', content: 'no-referrer' })));
  await postShare(page, new URL('/files/share-target', process.env.E2E_BASE_URL!).toString());
  await expect(page).toHaveURL(/\/files$/);
  await expect(page.getByTestId('signed-in-as')).toHaveText('Phone Person');
  await expect(page.getByText('3 files')).toHaveCount(0);
  await expect(page.getByText('image (2).jpg')).toHaveCount(0);
  expect(await page.evaluate(async () => (await (await caches.open('htmls-share-target')).keys()).length)).toBe(0);
});
