import { expect, test } from '@playwright/test';
import { ownClientAddress } from './support/client-address';
import { useConsoleSession } from './support/console-session';
import { createMember, createShare } from './support/seed';

test.use({ extraHTTPHeaders: ownClientAddress() });

// Issue 41, item 11: /files's sections in the URL, one checkbox, shares titled by their files.

test('the sections of /files are in the URL: a direct link opens one, Back and Forward go through them', async ({ page }) => {
  const member = await createMember('Robin Tabs');
  await useConsoleSession(page.context(), member);
  const section = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name, exact: true });

  // A bookmark of the Requests section opens it.
  await page.goto('/files#requests');
  await expect(section('Requests')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: 'File requests' })).toBeVisible();

  await section('Access tokens').click();
  await expect(page).toHaveURL(/\/files#tokens$/);
  await expect(page.getByRole('heading', { name: 'Access tokens' })).toBeVisible();
  await section('Shares').click();
  await expect(page).toHaveURL(/\/files#shares$/);
  await expect(section('Shares')).toHaveAttribute('aria-current', 'page');

  await page.goBack();
  await expect(page).toHaveURL(/\/files#tokens$/);
  await expect(section('Access tokens')).toHaveAttribute('aria-current', 'page');
  await page.goBack();
  await expect(page).toHaveURL(/\/files#requests$/);
  await expect(section('Requests')).toHaveAttribute('aria-current', 'page');
  await page.goForward();
  await expect(section('Access tokens')).toHaveAttribute('aria-current', 'page');

  // A reload keeps the section.
  await page.reload();
  await expect(section('Access tokens')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: 'Access tokens' })).toBeVisible();
});

test('one checkbox in the consoles: the native input, toggled from the keyboard', async ({ page }) => {
  const member = await createMember();
  await useConsoleSession(page.context(), member);
  await page.goto('/files#tokens');
  const events = page.getByRole('group', { name: 'Events' });
  const box = events.getByRole('checkbox', { name: 'share.created' });
  await expect(box).toBeVisible();
  await expect(box).not.toBeChecked();
  // Tab reaches it and Space toggles it, as any native checkbox.
  await page.getByLabel('Receiver URL').focus();
  await page.keyboard.press('Tab');
  await expect(box).toBeFocused();
  await page.keyboard.press('Space');
  await expect(box).toBeChecked();
  await page.keyboard.press('Space');
  await expect(box).not.toBeChecked();

  // Every checkbox shown is the same visible native input, in the same colour: none hidden
  // behind a drawn box.
  const styles = await page.locator('input[type="checkbox"]').evaluateAll((els) =>
    els.map((el) => {
      const s = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      return { accent: s.accentColor, appearance: s.appearance, width: Math.round(r.width), hidden: el.classList.contains('sr-only') };
    }),
  );
  expect(styles.length).toBeGreaterThan(3);
  expect(new Set(styles.map((s) => JSON.stringify(s))).size).toBe(1);
  expect(styles[0]).toMatchObject({ appearance: 'auto', width: 20, hidden: false });
  expect(styles[0].accent).not.toBe('auto');
});

test('a share without a note is titled by its files in the /files list', async ({ page }) => {
  const member = await createMember();
  const one = await createShare(member.token, { 'docs/report.pdf': Buffer.from('%PDF-1.4') });
  const many = await createShare(member.token, { 'b.txt': Buffer.from('b'), 'a.txt': Buffer.from('a'), 'c.txt': Buffer.from('c'), 'd.txt': Buffer.from('d') });
  await useConsoleSession(page.context(), member);
  await page.goto('/files#shares');
  await expect(page.getByTestId(`share-${one.id}`).getByTestId('row-title')).toHaveText('report.pdf');
  await expect(page.getByTestId(`share-${many.id}`).getByTestId('row-title')).toHaveText('a.txt and 3 more');
  // The share page says the same.
  await page.goto(`/f/${many.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('a.txt and 3 more');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the tabs are in the URL too, and Back returns to the tab before', async ({ page }) => {
    const member = await createMember();
    await useConsoleSession(page.context(), member);
    await page.goto('/files#requests');
    await expect(page.getByRole('tab', { name: 'Requests' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('tab', { name: 'Settings' }).tap();
    await expect(page).toHaveURL(/\/files#settings$/);
    await page.getByRole('tab', { name: 'Upload' }).tap();
    await expect(page).toHaveURL(/\/files$/);
    await page.goBack();
    await expect(page.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
    await page.goBack();
    await expect(page.getByRole('tab', { name: 'Requests' })).toHaveAttribute('aria-selected', 'true');
    // A wide screen's section link (#tokens) opens Settings here.
    await page.goto('/files#tokens');
    await expect(page.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
  });
});
