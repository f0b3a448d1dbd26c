import { expect, test, type Page } from '@playwright/test';
import { createMember, createShare, expireShare, updateShare } from './support/seed';
import { useConsoleSession } from './support/console-session';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

/** Every public page at the narrowest phone width: nothing may scroll sideways. */
test.use({ viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });

async function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

test('no public page scrolls horizontally at 320 px, in light and dark mode', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const member = await createMember('A Rather Long Display Name For Narrow Screens');
  const long = 'a-very-long-folder-name-without-any-spaces-at-all/and-a-file-name-that-goes-on-and-on.txt';
  const open = await createShare(member.token, { [long]: Buffer.from('text '.repeat(400)), 'data.bin': Buffer.alloc(2048) }, { note: 'A note that is long enough to wrap over several lines on a small phone screen' });
  const locked = await createShare(member.token, { 'a.txt': Buffer.from('a') }, { password: 'guest password' });
  const expired = await createShare(member.token, { 'a.txt': Buffer.from('a') });
  await expireShare(member.token, expired.id);

  const paths = [
    '/',
    '/files',
    '/htmls',
    `/f/${open.id}`,
    `/f/${locked.id}`,
    `/f/${expired.id}`,
    '/f/doesnotexist',
    '/p/no-such-site/',
    '/offline',
    '/no/such/page',
    '/user-guide.html',
    '/architecture.html',
    '/privacy-policy.html',
    '/ios-app-guide.html',
    '/mac-app-guide.html',
  ];
  const wide: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const path of paths) {
      await page.goto(path);
      const extra = await overflow(page);
      if (extra > 0) wide.push(`${colorScheme} ${path}: ${extra}px too wide`);
    }
  }

  // The signed-in console too: each of the phone layout's tabs (the member's shares above are
  // in Shares, with long names), in both colour schemes.
  for (const colorScheme of ['light', 'dark'] as const) {
    const ctx = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, colorScheme });
    await useConsoleSession(ctx, member);
    const console_ = await ctx.newPage();
    await console_.goto('/files');
    await expect(console_.getByTestId('signed-in-as')).toBeVisible();
    for (const tab of ['Upload', 'Shares', 'Settings']) {
      await console_.getByRole('tab', { name: tab }).tap();
      const panel = console_.getByRole('tabpanel', { name: tab });
      await expect(panel).toBeVisible();
      if (tab === 'Shares') await expect(panel.getByTestId(`share-${open.id}`)).toBeVisible();
      if (tab === 'Settings') await expect(panel.getByRole('button', { name: 'Delete my account' })).toBeVisible();
      const extra = await overflow(console_);
      if (extra > 0) wide.push(`${colorScheme} /files ${tab} tab (signed in): ${extra}px too wide`);
    }
    await ctx.close();
  }

  // The administrator's Settings tab holds user management (its table scrolls inside its card).
  const admin = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    viewport: { width: 320, height: 640 },
    isMobile: true,
    hasTouch: true,
    extraHTTPHeaders: { 'X-Forwarded-For': '10.7.3.20' },
  });
  const adminPage = await admin.newPage();
  await adminPage.goto('/files');
  await adminPage.getByRole('tab', { name: 'Administrator' }).tap();
  await adminPage.getByLabel('Admin Token').fill(process.env.E2E_ADMIN_TOKEN!);
  await adminPage.getByRole('button', { name: 'Sign in as administrator' }).tap();
  await adminPage.getByRole('tab', { name: 'Settings' }).tap();
  const adminSettings = adminPage.getByRole('tabpanel', { name: 'Settings' });
  await expect(adminSettings.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await expect(adminSettings.getByTestId(`user-${member.username}`)).toBeAttached();
  await expect(adminSettings.getByRole('button', { name: 'Sign out' })).toBeVisible();
  const adminExtra = await overflow(adminPage);
  if (adminExtra > 0) wide.push(`/files Settings tab (administrator): ${adminExtra}px too wide`);
  await admin.close();

  expect(wide).toEqual([]);
});
