import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { startServer } from '../tests/support/server';
import { freshServiceEnv } from '../tests/support/services';
import { TestSmtp } from '../tests/support/smtp';
import { WebhookReceiver } from '../tests/support/webhook-receiver';
import { ownClientAddress } from './support/client-address';
import { useConsoleSession } from './support/console-session';
import { createMember, createShare, seedAgainst } from './support/seed';

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
  await expect.poll(() => guest.getByRole('img', { name: 'photo.jpg' }).evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(64);
  await expect(guest.locator('pre')).toHaveText(NOTES);
  await metadataRead(guest);
  // Every preview asked for ?preview, and the list's thumbnails and posters for ?poster, neither
  // of which counts: after them, still one left.
  expect(guestRequests.filter((u) => u.endsWith('?preview')).length).toBeGreaterThanOrEqual(3);
  expect(guestRequests.filter((u) => !u.endsWith('?preview') && !u.endsWith('?poster'))).toEqual([]);
  await guest.reload();
  await expect(guest.getByTestId('download-limit')).toContainText('1 download left');
  await metadataRead(guest);

  // One real download through the Download button.
  const [download] = await Promise.all([guest.waitForEvent('download'), guest.getByRole('link', { name: 'Download photo.jpg' }).click()]);
  expect(download.suggestedFilename()).toBe('photo.jpg');
  expect(readFileSync((await download.path())!).equals(readFileSync(path.join(MEDIA, 'photo.jpg')))).toBe(true);

  // The page follows the download at once (issue 41, item 9): no Download button is left.
  await expect(guest.getByTestId('download-limit')).toContainText('can no longer be downloaded');
  await expect(guest.getByRole('button', { name: 'Download notes.txt: no downloads are left' })).toBeDisabled();
  // A second attempt by a file's address (a tab opened before, a bookmark): refused, and the guest is told why.
  expect((await guest.goto(`${link}/notes.txt?download=1`))!.status()).toBe(410);
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

test('first day: one aria2c -x 8 download of a limit-1 share is one row in its Activity, one share.downloaded at the webhook and one line in the mail', async ({ browser }) => {
  test.setTimeout(180_000);
  // A real SMTP server and a webhook receiver of the test's, and a server of its own that mails
  // and posts to them (the suite's server has no SMTP_URL; a receiver on 127.0.0.1 needs
  // WEBHOOK_ALLOW_PRIVATE).
  const smtp = await new TestSmtp().start();
  const receiver = await new WebhookReceiver().start();
  const server = await startServer({ ...(await freshServiceEnv()), SMTP_URL: smtp.url, WEBHOOK_ALLOW_PRIVATE: 'true' });
  seedAgainst(server.url);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'htmls-first-day-aria2c-'));
  try {
    const member = await createMember();
    const call = async (method: string, url: string, body?: unknown) => {
      const r = await fetch(`${server.url}${url}`, {
        method,
        headers: { Authorization: `Bearer ${member.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...ownClientAddress() },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(r.ok, `${method} ${url}: ${r.status}`).toBe(true);
      return r.status === 204 ? null : r.json();
    };
    // The member's address, confirmed by the link mailed to it (mail goes only to confirmed addresses).
    const address = `${member.username}@example.test`;
    await call('PATCH', '/api/auth/profile', { email: address, current_password: member.password });
    const confirmation = await smtp.waitFor((m) => m.to.includes(address) && /^Confirm your e-mail/.test(m.subject));
    const token = decodeURIComponent(/\/confirm-email\?token=([A-Za-z0-9_%-]+)/.exec(confirmation.text)![1]);
    await call('POST', '/api/auth/email/confirm', { token });
    const { webhook } = await call('POST', '/api/webhooks', { url: receiver.url, events: ['share.downloaded'] });

    const data = randomBytes(5_000_000);
    const share = await createShare(member.token, { 'big.bin': data }, { note: 'aria2c', max_downloads: 1 });
    // Eight connections on 1 MiB pieces: several ranges of one item, under one download ticket.
    await promisify(execFile)('aria2c', ['-q', '-x', '8', '-s', '8', '-k', '1M', '--header', `X-Forwarded-For: ${ownClientAddress()['X-Forwarded-For']}`, '-d', dir, '-o', 'big.bin', `${server.url}/f/${share.id}/big.bin`]);
    expect(readFileSync(path.join(dir, 'big.bin')).equals(data)).toBe(true);

    // The share's Activity, as its owner sees it: one download, completed, all its bytes.
    const context = await browser.newContext({ extraHTTPHeaders: ownClientAddress(), baseURL: server.url });
    await useConsoleSession(context, member, server.url);
    const page = await context.newPage();
    const chart = page.getByTestId('downloads-chart');
    // Written off the byte path a second later: read again until the completed row is there.
    await expect(async () => {
      await page.goto('/files');
      await page.locator('summary', { hasText: 'Activity' }).first().click();
      await expect(chart).toHaveAttribute('aria-label', /: 1 in all, 1 completed$/, { timeout: 2000 });
    }).toPass({ timeout: 30_000 });
    const list = page.getByRole('list', { name: 'Downloads, newest first' });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list.getByText('Completed')).toHaveCount(1);
    await expect(list.getByText('Partial')).toHaveCount(0);
    await expect(page.locator('[data-testid^="share-"]').filter({ hasText: 'aria2c' }).getByTestId('downloads')).toHaveText('1 download of 1 allowed');

    // One event: the row was made complete, and its event queued, in one transaction, so by now
    // the webhook's delivery log holds every share.downloaded there will be — and mail is made
    // from the same events, so one event is one mail line.
    const event = await receiver.waitFor((r) => r.json.type === 'share.downloaded' && r.json.data.share_id === share.id);
    expect(event.json.data).toMatchObject({ share_id: share.id, path: 'big.bin', bytes: data.length });
    const { deliveries } = await call('GET', `/api/webhooks/${webhook.id}/deliveries`);
    expect(deliveries.map((d: { type: string }) => d.type)).toEqual(['share.downloaded']);
    expect(receiver.received.filter((r) => r.json.type === 'share.downloaded')).toHaveLength(1);

    const mail = await smtp.waitFor((m) => m.to.includes(address) && /^Your share was downloaded/.test(m.subject));
    expect(mail.subject).toBe('Your share was downloaded');
    const lines = mail.text.split(/\r?\n/).filter((l) => l.startsWith('• '));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('big.bin');
    expect(smtp.mails.filter((m) => /^Your share was downloaded/.test(m.subject))).toHaveLength(1);
    await context.close();
  } finally {
    seedAgainst(undefined);
    await server.stop();
    await receiver.stop();
    await smtp.stop();
  }
});
