import { expect, test, type Locator, type Page } from '@playwright/test';
import { createMember } from './support/seed';
import { useConsoleSession } from './support/console-session';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

/**
 * /files on a phone (390 × 844, touch, mobile emulation) in light and dark mode: the native
 * clients' tabs (and Requests). Upload from the Upload tab (camera-roll picker, expiry, generated
 * password, progress, copy / system share), see it in Shares and take it offline, then change
 * the profile and delete the account in Settings. Touch targets are 44 px or more.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/**
 * Every visible control in the shown panel and the tab bar is at least 44 × 44 px. A checkbox's
 * target is its label (a tap on it toggles the box): the label is measured, not the box.
 */
async function smallTargets(page: Page): Promise<string[]> {
  const { checked, small } = await page.evaluate(() => {
    const small: string[] = [];
    let checked = 0;
    const controls = document.querySelectorAll<HTMLElement>('[role="tabpanel"] button, [role="tabpanel"] input:not(.sr-only):not([type="checkbox"]), [role="tabpanel"] select, [role="tabpanel"] label:has(> input.sr-only), [role="tabpanel"] label:has(> input[type="checkbox"]), [role="tab"]');
    for (const el of controls) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue; // not shown (another tab, a closed dialog)
      checked++;
      if (r.height < 44 || r.width < 44) small.push(`${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('aria-label') || (el as HTMLInputElement).name || '').trim()}" ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
    return { checked, small };
  });
  expect(checked, 'controls measured').toBeGreaterThan(4);
  return small;
}

async function tap(target: Locator) {
  await target.tap();
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`phone, ${colorScheme} mode: upload from the Upload tab, manage it in Shares, edit the profile and delete the account in Settings`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme });
    // The system share sheet is the platform's; record what the page hands it.
    await page.addInitScript(() => {
      const w = window as unknown as { shared: ShareData[] };
      w.shared = [];
      Object.defineProperty(navigator, 'share', { configurable: true, value: async (data: ShareData) => void w.shared.push(data) });
    });
    const member = await createMember('Pat Phone');
    await useConsoleSession(page.context(), member);
    await page.goto('/files');
    await expect(page.getByTestId('signed-in-as')).toHaveText('Pat Phone');
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(colorScheme === 'dark');

    // The phone layout: a bottom tab bar, Upload open; the wide layout's section links and Sign out are not shown.
    const tabs = page.getByRole('tablist', { name: 'Sections' });
    await expect(tabs).toBeVisible();
    await expect(tabs.getByRole('tab')).toHaveText(['Upload', 'Shares', 'Requests', 'Settings']);
    await expect(page.getByRole('tab', { name: 'Upload' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('navigation', { name: 'Sections' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
    const bar = (await tabs.boundingBox())!;
    expect(bar.y + bar.height).toBeCloseTo(844, 0);

    // Upload tab: the camera-roll picker, a note, a 1-day expiry and a generated password.
    const upload = page.getByRole('tabpanel', { name: 'Upload' });
    await expect(upload.getByRole('heading', { name: 'New share' })).toBeVisible();
    await expect(upload.getByTestId('media-input')).toHaveAttribute('accept', 'image/*,video/*');
    await expect(upload.getByTestId('media-input')).toHaveAttribute('multiple', '');
    await upload.getByTestId('media-input').setInputFiles([
      { name: 'VID_0001.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(2 * 1024 * 1024, 1) },
      { name: 'IMG_0002.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(300 * 1024, 2) },
    ]);
    await expect(upload.getByText('2 files')).toBeVisible();
    await upload.getByLabel('Note (optional)').fill('Beach day');
    await tap(upload.getByRole('button', { name: '1 day' }));
    await expect(upload.getByRole('button', { name: '1 day' })).toHaveAttribute('aria-pressed', 'true');
    await tap(upload.getByRole('button', { name: 'Generate' }));
    await expect(upload.getByLabel('Password (optional)')).toHaveValue(/^[A-Za-z2-9]{16}$/);
    expect(await smallTargets(page)).toEqual([]);

    await tap(upload.getByRole('button', { name: 'Upload and create link' }));
    const link = upload.getByTestId('share-link');
    await expect(link).toBeVisible({ timeout: 60_000 });
    const url = (await link.textContent())!;
    expect(url).toMatch(/\/f\/[A-Za-z0-9]+$/);
    // The form fills the screen: the new link is brought into view, clear of the tab bar.
    const ready = upload.getByRole('status').filter({ hasText: 'Your link is ready' });
    await expect(ready).toBeInViewport({ ratio: 1 });
    expect((await ready.boundingBox())!.y + (await ready.boundingBox())!.height).toBeLessThanOrEqual((await tabs.boundingBox())!.y);
    await expect(upload.getByRole('img', { name: `QR code for ${url}` })).toBeVisible();
    await tap(upload.getByRole('button', { name: 'Share link' }));
    await expect.poll(() => page.evaluate(() => (window as unknown as { shared: ShareData[] }).shared)).toEqual([{ url, title: 'Beach day' }]);

    // Shares tab: the new share with its status, expiry, password and counts, and its buttons.
    await tap(page.getByRole('tab', { name: 'Shares' }));
    await expect(page.getByRole('tab', { name: 'Shares' })).toHaveAttribute('aria-selected', 'true');
    await expect(upload).toBeHidden();
    const shares = page.getByRole('tabpanel', { name: 'Shares' });
    const id = url.split('/').pop()!;
    const row = shares.getByTestId(`share-${id}`);
    await expect(row.getByRole('link', { name: 'Beach day' })).toBeVisible();
    await expect(row).toContainText('online');
    await expect(row).toContainText('password');
    await expect(row).toContainText('2 files · 2.3 MB');
    await expect(row).toContainText('expires');
    await expect(row.getByTestId('downloads')).toHaveText('0 downloads');
    expect(await smallTargets(page)).toEqual([]);
    await tap(row.getByRole('button', { name: 'Take offline' }));
    await expect(row.getByRole('button', { name: 'Put online' })).toBeVisible();
    await expect(row).toContainText('offline');
    await tap(row.getByRole('button', { name: 'Put online' }));
    await expect(row.getByRole('button', { name: 'Take offline' })).toBeVisible();
    // A reload keeps the tab (the URL says #shares).
    await expect(page).toHaveURL(/\/files#shares$/);
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Shares' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel', { name: 'Shares' }).getByTestId(`share-${id}`)).toBeVisible();

    // Keyboard: arrows move along the tab bar (and wrap), Home goes back to the first tab.
    await page.getByRole('tab', { name: 'Shares' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Requests' })).toBeFocused();
    await expect(page.getByRole('tabpanel', { name: 'Requests' }).getByText('No requests yet.')).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Settings' })).toBeFocused();
    await expect(page.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');

    // Settings tab: who is signed in, the quota meter with the upload counted, the profile.
    const settings = page.getByRole('tabpanel', { name: 'Settings' });
    await expect(settings.getByRole('heading', { name: 'Account', exact: true })).toBeVisible();
    await expect(settings.getByRole('meter', { name: 'Storage quota' })).toBeVisible();
    await expect(settings.getByTestId('quota')).toContainText('2.3 MB of 1.0 GB used');
    await expect(settings.getByRole('button', { name: 'Sign out' })).toBeVisible();
    expect(await smallTargets(page)).toEqual([]);
    await settings.getByLabel('Name', { exact: true }).fill('Pat Renamed');
    await tap(settings.getByRole('button', { name: 'Save profile' }));
    await expect(settings.getByRole('status').filter({ hasText: 'Profile saved.' })).toBeVisible();
    await expect(page.getByTestId('signed-in-as')).toHaveText('Pat Renamed');

    // Delete the account: only once the username is typed; then the sign-in form, and the login fails.
    const del = settings.getByRole('button', { name: 'Delete my account' });
    await expect(del).toBeDisabled();
    await settings.getByLabel(/Type your username/).fill(member.username);
    await tap(del);
    await expect(page.getByRole('tab', { name: 'Log in' })).toBeVisible();
    const login = await page.request.post('/api/auth/login', { data: { username: member.username, password: member.password }, headers: { 'X-Forwarded-For': '10.8.0.1' } });
    expect(login.status()).toBe(401);
    const guest = await page.request.get(url);
    expect(guest.status()).toBe(404);
  });
}

test('phone: the sign-in screen has 44 px touch targets too', async ({ page }) => {
  await page.goto('/files');
  await expect(page.getByRole('tab', { name: 'Log in' })).toHaveAttribute('aria-selected', 'true');
  expect(await smallTargets(page)).toEqual([]);
  await page.getByRole('tab', { name: 'Register' }).tap();
  expect(await smallTargets(page)).toEqual([]);
});

test('phone: the share sheet opens the Upload tab with the files, whatever tab was open', async ({ page }) => {
  const member = await createMember('Pat Phone');
  await useConsoleSession(page.context(), member);
  await page.goto('/files#settings');
  await expect(page.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  // What Android's share sheet sends: a multipart POST of files to the manifest's action.
  await page.evaluate(() => {
    const form = Object.assign(document.createElement('form'), { method: 'post', action: '/files/share-target', enctype: 'multipart/form-data' });
    const input = Object.assign(document.createElement('input'), { type: 'file', name: 'files' });
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(1000).fill(7)], 'VID_0003.mp4', { type: 'video/mp4' }));
    input.files = dt.files;
    form.append(input);
    document.body.append(form);
    form.submit();
  });
  await expect(page.getByRole('tab', { name: 'Upload' })).toHaveAttribute('aria-selected', 'true');
  const upload = page.getByRole('tabpanel', { name: 'Upload' });
  await expect(upload.getByText('1 file ·')).toBeVisible();
  await expect(upload.getByText('VID_0003.mp4')).toBeVisible();
});

test('phone: an interrupted upload is announced on the Upload tab, with a way to its Shares tab', async ({ page }) => {
  const member = await createMember('Pat Phone');
  // An upload started (here through the API) and never completed: pending, holding its quota.
  const init = await fetch(`${process.env.E2E_BASE_URL}/api/shares/upload/init`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${member.token}`, 'Content-Type': 'application/json', 'X-Forwarded-For': '10.8.1.2' },
    body: JSON.stringify({ note: 'Half sent', files: [{ clientPath: 'big.mov', size: 5 * 1024 * 1024 }] }),
  });
  expect(init.status).toBe(201);
  const { groupId } = (await init.json()) as { groupId: string };
  await useConsoleSession(page.context(), member);
  await page.goto('/files');
  const upload = page.getByRole('tabpanel', { name: 'Upload' });
  await expect(upload.getByText('An upload was interrupted.')).toBeVisible();
  await upload.getByRole('button', { name: 'Open Shares' }).tap();
  await expect(page.getByRole('tab', { name: 'Shares' })).toHaveAttribute('aria-selected', 'true');
  const row = page.getByRole('tabpanel', { name: 'Shares' }).getByTestId(`share-${groupId}`);
  await expect(row).toContainText('upload unfinished');
  await expect(row.getByRole('button', { name: 'Resume' })).toBeVisible();
});

test('wide screens keep the header layout: no tab bar, section links and Sign out in the header', async ({ browser }) => {
  const ctx = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport: { width: 1024, height: 768 } });
  const member = await createMember('Wide Person');
  await useConsoleSession(ctx, member);
  const page = await ctx.newPage();
  await page.goto('/files');
  await expect(page.getByTestId('signed-in-as')).toHaveText('Wide Person');
  await expect(page.getByRole('tablist', { name: 'Sections' })).toBeHidden();
  await expect(page.getByRole('tabpanel')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Sections' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'New share' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your shares' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(page.getByTestId('quota')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Open Shares' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { name: 'New share' })).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Account', exact: true })).toHaveCount(0);
  await ctx.close();
});
