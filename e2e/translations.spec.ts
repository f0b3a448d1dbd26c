import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import { ownClientAddress } from './support/client-address';
import { useConsoleSession } from './support/console-session';
import { createMember, createShare, type SeededMember } from './support/seed';

test.use({ extraHTTPHeaders: ownClientAddress() });

// Helpers for every block of this spec (the consoles' and the guest pages'): exported, so a
// describe block added below uses these rather than its own.

/** The page fits the screen: nothing wider than the viewport (a wide row would scroll sideways). */
export const noHorizontalOverflow = () => document.documentElement.scrollWidth <= document.documentElement.clientWidth;

/**
 * Text the layout cuts, run in the page: an element that hides its overflow (or ends it with an
 * ellipsis) while its content is wider or taller than its box, and text inside it. Each as
 * `tag[data-testid]: its text`, to name it in a failure. Screen-reader-only text (a 1 px box)
 * and form fields (the visitor's own text) are not layout.
 */
export const clippedText = (): string[] => {
  const cut: string[] = [];
  for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
    if (/^(INPUT|SELECT|TEXTAREA|OPTION|SCRIPT|STYLE|svg|path)$/i.test(el.tagName)) continue;
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden') continue;
    const hides = (o: string) => o === 'hidden' || o === 'clip';
    const wide = el.scrollWidth > el.clientWidth + 1 && (hides(style.overflowX) || style.textOverflow === 'ellipsis');
    const tall = el.scrollHeight > el.clientHeight + 1 && hides(style.overflowY);
    const text = (el.innerText ?? '').trim();
    if ((wide || tall) && text) cut.push(`${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''}: ${text.slice(0, 80)}`);
  }
  return cut;
};

/** A phone's browser in `locale` (390 × 844, touch), with its own client address and no service worker. */
export const phoneContext = (browser: Browser, locale: string) =>
  browser.newContext({ locale, viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, extraHTTPHeaders: ownClientAddress(), serviceWorkers: 'block' });

/** A desktop browser in `locale` (1280 × 800), with its own client address and no service worker. */
export const desktopContext = (browser: Browser, locale: string) =>
  browser.newContext({ locale, viewport: { width: 1280, height: 800 }, extraHTTPHeaders: ownClientAddress(), serviceWorkers: 'block' });

/**
 * The layout checks of a translated page: its `lang` and `dir`, no sideways scrolling, no text
 * cut; then a full-page screenshot attached to the report under `name`.
 */
export async function checkLayout(page: Page, testInfo: TestInfo, name: string, want: { lang: string; dir: 'ltr' | 'rtl' }) {
  await expect(page.locator('html')).toHaveAttribute('lang', want.lang);
  await expect(page.locator('html')).toHaveAttribute('dir', want.dir);
  await page.evaluate(() => document.fonts.ready);
  expect(await page.evaluate(noHorizontalOverflow), `${name}: scrolls sideways`).toBe(true);
  expect(await page.evaluate(clippedText), `${name}: text cut`).toEqual([]);
  await testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
}

/** A member's file request through the API (`body`: createRequest's fields). */
export async function createFileRequest(member: SeededMember, body: Record<string, unknown> = {}): Promise<{ id: string; url: string }> {
  const made = await fetch(`${process.env.E2E_BASE_URL}/api/requests`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${member.token}`, 'Content-Type': 'application/json', ...ownClientAddress() },
    body: JSON.stringify({ note: '', ...body }),
  });
  expect(made.status).toBe(201);
  return ((await made.json()) as { request: { id: string; url: string } }).request;
}

test('a guest with an Arabic phone reads the file request right to left, at 390 px, without sideways scrolling; the picker switches to German', async ({ browser }) => {
  const member = await createMember();
  const fileRequest = await createFileRequest(member, { max_files: 2, allowed_types: ['.pdf', 'video/*'] });

  const context = await phoneContext(browser, 'ar-SA');
  const page = await context.newPage();
  await page.goto(fileRequest.url);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expect(page.getByTestId('request-limits')).toContainText('ملفان كحد أقصى');
  expect(await page.evaluate(noHorizontalOverflow)).toBe(true);

  // A refused pick, its reason and a long Latin file name inside Arabic text: still no overflow.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'htmls-ar-'));
  const long = path.join(dir, 'a-rather-long-file-name-from-a-camera-roll-2026-12-07.txt');
  writeFileSync(long, 'notes');
  await page.getByTestId('request-files').setInputFiles(long);
  await expect(page.getByTestId('request-file-refused')).toContainText('هذا الطلب لا يقبل');
  expect(await page.evaluate(noHorizontalOverflow)).toBe(true);

  // The picker: German, kept in the cookie, the page reloaded in it (and left to right).
  await page.getByTestId('language-picker').selectOption('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page.getByRole('button', { name: 'Senden' })).toBeVisible();
  const cookie = (await context.cookies()).find((c) => c.name === 'htmls_locale');
  expect(cookie?.value).toBe('de');
  expect(cookie?.sameSite).toBe('Lax');
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(360 * 86_400);
  await context.close();
});

test('the request page says the API’s refusal in its own language: a request closed while the guest picks files reads German', async ({ browser }) => {
  const member = await createMember();
  const fileRequest = await createFileRequest(member);
  const context = await browser.newContext({ locale: 'de-DE', extraHTTPHeaders: ownClientAddress(), serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(fileRequest.url);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  // The owner closes it meanwhile: the upload's start is refused (404 not_found).
  const closed = await fetch(`${process.env.E2E_BASE_URL}/api/requests/${fileRequest.id}`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${member.token}`, 'Content-Type': 'application/json', ...ownClientAddress() },
    body: JSON.stringify({ status: 'closed' }),
  });
  expect(closed.status).toBe(200);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'htmls-de-request-'));
  writeFileSync(path.join(dir, 'notizen.txt'), 'Hallo');
  await page.getByTestId('request-files').setInputFiles(path.join(dir, 'notizen.txt'));
  await page.getByRole('button', { name: 'Senden', exact: true }).click();
  // The code's meaning in German first; the server's own (English) sentence after it, as the detail.
  await expect(page.getByRole('alert').filter({ hasText: /^Das gibt es nicht \(mehr\)\. \(No such file request/ })).toBeVisible();
  await context.close();
});

test('/files in German from the sign-in screen’s picker: the sign-in form, a refused password, then the upload card and a new link', async ({ browser }) => {
  const member = await createMember();
  const context = await browser.newContext({ locale: 'en-US', extraHTTPHeaders: ownClientAddress(), serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto('/files');
  await expect(page.getByRole('tab', { name: 'Register' })).toBeVisible();
  await page.getByTestId('language-picker').selectOption('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('tab', { name: 'Registrieren' })).toBeVisible();
  await page.getByLabel('Benutzername').fill(member.username);
  await page.getByLabel('Passwort').fill('not the password');
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Benutzername oder Passwort ist falsch.' })).toBeVisible();

  await page.getByLabel('Passwort').fill(member.password);
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Bereiche' }).getByRole('button')).toHaveText(['Freigaben', 'Anfragen', 'Profil', 'Zugriffstoken']);
  await expect(page.getByRole('heading', { name: 'Neue Freigabe' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Ablauf' }).getByRole('button')).toHaveText(['1 Tag', '7 Tage', '30 Tage', 'Nie']);

  const dir = mkdtempSync(path.join(os.tmpdir(), 'htmls-de-'));
  const file = path.join(dir, 'Angebot.txt');
  writeFileSync(file, 'Hallo');
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(page.getByText('1 Datei · 5 Byte')).toBeVisible();
  await page.getByRole('button', { name: 'Hochladen und Link erstellen' }).click();
  const ready = page.getByRole('status').filter({ hasText: 'Ihr Link ist bereit' });
  await expect(ready).toBeVisible({ timeout: 60_000 });
  await expect(ready.getByRole('button', { name: 'Link kopieren' })).toBeVisible();
  // The new share's row: its counts and actions in German too.
  const row = page.getByTestId(/^share-[A-Za-z0-9_-]{8,}$/);
  await expect(row.getByTestId('downloads')).toHaveText('0 Downloads');
  await expect(row).toContainText('1 Datei · 5 Byte');
  await expect(row.getByRole('button', { name: 'Offline nehmen' })).toBeVisible();
  await expect(row.getByText('Dateien (1)')).toBeVisible();
  await context.close();
});

test('/files on an Arabic phone at 390 px: right to left, its tabs in Arabic, no sideways scrolling with a long Latin file name or in the share list', async ({ browser }) => {
  const member = await createMember();
  const context = await phoneContext(browser, 'ar-SA');
  await createShare(member.token, { 'quarterly-report-final-version-2026-with-appendices-and-photos.pdf': Buffer.from('%PDF-1.4') }, { note: '' });
  await useConsoleSession(context, member);
  const page = await context.newPage();
  await page.goto('/files');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
  await expect(page.getByRole('tablist', { name: 'الأقسام' }).getByRole('tab')).toHaveText(['رفع', 'المشاركات', 'الطلبات', 'الإعدادات']);
  await expect(page.getByRole('heading', { name: 'مشاركة جديدة' })).toBeVisible();
  expect(await page.evaluate(noHorizontalOverflow)).toBe(true);

  const dir = mkdtempSync(path.join(os.tmpdir(), 'htmls-ar-files-'));
  const long = path.join(dir, 'a-rather-long-file-name-from-a-camera-roll-2026-12-07-without-any-break.txt');
  writeFileSync(long, 'notes');
  await page.getByTestId('file-input').setInputFiles(long);
  await expect(page.getByText('ملف واحد · 5 بايت')).toBeVisible();
  expect(await page.evaluate(noHorizontalOverflow)).toBe(true);

  // The Shares tab: a share with a long Latin name, its badges, counts and actions in Arabic.
  await page.getByRole('tab', { name: 'المشاركات' }).tap();
  const row = page.getByTestId(/^share-[A-Za-z0-9_-]{8,}$/);
  await expect(row.getByTestId('downloads')).toHaveText('لا تنزيلات');
  await expect(row.getByRole('button', { name: 'إيقاف الإتاحة' })).toBeVisible();
  expect(await page.evaluate(noHorizontalOverflow)).toBe(true);
  await context.close();
});

test('a guest with an Arabic phone reads a share right to left, at 390 px, without sideways scrolling: long Latin names, a folder, a download limit', async ({ browser }) => {
  const member = await createMember('Ada Lovelace');
  const long = 'a-rather-long-file-name-from-a-camera-roll-2026-12-07-without-any-space.txt';
  const share = await createShare(
    member.token,
    { [long]: Buffer.from('first notes\n'), 'photos-from-the-trip/second-file-with-a-long-name.txt': Buffer.from('second notes\n') },
    { max_downloads: 3, expires_at: new Date(Date.now() + 3 * 86_400_000 + 3_600_000).toISOString() },
  );
  const context = await phoneContext(browser, 'ar-SA');
  const page = await context.newPage();
  await page.goto(`/f/${share.id}`);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('وملف آخر');
  await expect(page.getByTestId('download-limit')).toContainText('يتبقى 3 تنزيلات');
  // The browser's part, in Arabic too: the relative time and the local date.
  await expect(page.getByTestId('expiry')).toContainText('تنتهي صلاحيتها');
  await expect(page.getByRole('link', { name: `تنزيل ${long}` })).toBeVisible();
  expect(await page.evaluate(noHorizontalOverflow)).toBe(true);

  // The picker: German, kept in the cookie, the page reloaded in it (and left to right).
  await page.getByTestId('language-picker').selectOption('de');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page.getByTestId('download-limit')).toContainText('Noch 3 Downloads');
  await expect(page.getByRole('link', { name: /^Alle herunterladen \(2 Dateien, / })).toBeVisible();
  expect(await page.evaluate(noHorizontalOverflow)).toBe(true);
  await context.close();
});

test('a member picks German in Settings → Profile: the page comes back in German, and its Language field says so', async ({ page }) => {
  const username = `e2e${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  await page.goto('/files');
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('a good long password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('button', { name: 'Profile' }).click();

  const language = page.getByLabel('Language', { exact: true });
  await expect(language).toHaveValue('');
  await language.selectOption('de');
  await page.getByRole('button', { name: 'Save profile' }).click();
  // The page reloads in German and stays on Settings → Profile (its place is in the URL).
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByLabel('Sprache', { exact: true })).toHaveValue('de');
  await expect(page.getByText('Für diese Seiten und die E-Mails, die htmls Ihnen sendet.')).toBeVisible();
  // The rest of the card and the one below it are German too, the username kept as it is.
  await expect(page.getByText(`Angemeldet als ${username} (Benutzernamen lassen sich nicht ändern).`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Profil speichern' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Konto löschen' })).toBeVisible();
  await expect(page.getByLabel(`Geben Sie zur Bestätigung Ihren Benutzernamen (${username}) ein`)).toBeVisible();
});

test.describe('the no-script pages’ language picker (password, error and offline pages: no script runs there)', () => {
  test('a share’s password page: Deutsch and Change reload it in German; then the unlocked share is German too', async ({ browser }) => {
    const member = await createMember();
    const share = await createShare(member.token, { 'angebot.txt': Buffer.from('Hallo') }, { password: 'open sesame 42' });
    const context = await browser.newContext({ locale: 'en-US', extraHTTPHeaders: ownClientAddress(), serviceWorkers: 'block', javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/f/${share.id}`);
    await expect(page.getByRole('heading', { name: 'Password required' })).toBeVisible();
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('button', { name: 'Change' }).click();
    await expect(page).toHaveURL(new RegExp(`/f/${share.id}$`));
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { name: 'Passwort erforderlich' })).toBeVisible();
    await expect(page.getByLabel('Sprache')).toHaveValue('de');
    await page.getByLabel('Passwort', { exact: true }).fill('open sesame 42');
    await page.getByRole('button', { name: 'Entsperren' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('angebot.txt');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await context.close();
  });

  test('a hosted project’s password page, on the hosted origin: Arabic, right to left, from its own picker', async ({ browser }) => {
    const form = new FormData();
    const slug = `lang-${Date.now().toString(36)}`;
    form.append('slug', slug);
    form.append('password', 'open-sesame');
    form.append('file', new Blob(['<p>secret page</p>']), 'index.html');
    const made = await fetch(`${process.env.E2E_BASE_URL}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}`, ...ownClientAddress() }, body: form });
    expect(made.status).toBe(201);
    const context = await browser.newContext({ locale: 'en-US', extraHTTPHeaders: ownClientAddress(), serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(`/p/${slug}/`);
    const hosted = new URL(page.url()).origin;
    expect(hosted).not.toBe(new URL(process.env.E2E_BASE_URL!).origin);
    await expect(page.getByRole('heading', { name: 'Password required' })).toBeVisible();
    await page.getByLabel('Language').selectOption('ar');
    await page.getByRole('button', { name: 'Change' }).click();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { name: 'كلمة المرور مطلوبة' })).toBeVisible();
    expect(new URL(page.url()).origin).toBe(hosted);
    expect((await context.cookies(hosted)).find((c) => c.name === 'htmls_locale')?.value).toBe('ar');
    await context.close();
  });

  test('a target on another origin is refused: nothing set, nowhere sent', async ({ request }) => {
    const r = await request.post('/locale', { form: { locale: 'de', next: '//evil.example/' }, maxRedirects: 0, headers: { Accept: 'text/html' } });
    expect(r.status()).toBe(400);
    expect(r.headers()['location']).toBeUndefined();
    expect(r.headers()['set-cookie']).toBeUndefined();
  });
});

test.describe('screenshots of the guest pages and /files in German and Arabic, on a phone and a desktop (issue 40)', () => {
  test('the layout checks catch what they look for: a row cut by its box, an ellipsis, a page wider than the screen', async ({ page }) => {
    await page.setContent(`<!doctype html><html lang="de" dir="ltr"><body style="margin:0">
      <p style="width:60px;overflow:hidden;white-space:nowrap">Herunterladen abgeschlossen</p>
      <p data-testid="cut" style="width:60px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap">Freigabe läuft ab</p>
      <p style="width:60px">fits</p><span style="position:absolute;width:1px;height:1px;overflow:hidden">nur für Screenreader, länger als ein Pixel</span></body></html>`);
    expect(await page.evaluate(clippedText)).toEqual(['p: Herunterladen abgeschlossen', 'p[cut]: Freigabe läuft ab']);
    expect(await page.evaluate(noHorizontalOverflow)).toBe(true);
    await page.setContent('<!doctype html><body style="margin:0"><div style="width:5000px">wide</div></body>');
    expect(await page.evaluate(noHorizontalOverflow)).toBe(false);
  });

  for (const [locale, lang, dir] of [
    ['de-DE', 'de', 'ltr'],
    ['ar-SA', 'ar', 'rtl'],
  ] as const) {
    for (const width of ['phone', 'desktop'] as const) {
      test(`${lang}, ${width}: the share page, the request page and /files read ${dir}, fit the screen and cut no text`, async ({ browser }, testInfo) => {
        const member = await createMember('Ada Lovelace');
        const share = await createShare(
          member.token,
          { 'quarterly-report.pdf': Buffer.from('%PDF-1.4'), 'photos/notes-from-the-trip.txt': Buffer.from('notes\n') },
          { note: '', max_downloads: 5, expires_at: new Date(Date.now() + 3 * 86_400_000 + 3_600_000).toISOString() },
        );
        const fileRequest = await createFileRequest(member, { max_files: 10, allowed_types: ['.pdf', 'image/*'] });
        const context = width === 'phone' ? await phoneContext(browser, locale) : await desktopContext(browser, locale);
        const page = await context.newPage();

        await page.goto(`/f/${share.id}`);
        await expect(page.getByTestId('download-limit')).toBeVisible();
        await checkLayout(page, testInfo, `share page, ${lang}, ${width}`, { lang, dir });

        await page.goto(fileRequest.url);
        await expect(page.getByTestId('request-limits')).toBeVisible();
        await checkLayout(page, testInfo, `request page, ${lang}, ${width}`, { lang, dir });

        await useConsoleSession(context, member);
        await page.goto('/files');
        await expect(page.getByTestId('signed-in-as')).toBeVisible();
        await checkLayout(page, testInfo, `/files, ${lang}, ${width}`, { lang, dir });
        await context.close();
      });
    }
  }
});

test.describe('/htmls in German and Arabic, at 390 px and on a desktop: the sign-in, then a project card, its deploys and the audit log, with no sideways scrolling and no clipped text', () => {
  // A long Latin name and a note, so the card has something to wrap.
  const slug = `a-rather-long-project-name-for-layouts-${Date.now().toString(36)}`;
  test.beforeAll(async () => {
    const form = new FormData();
    form.append('slug', slug);
    form.append('note', 'Quarterly report microsite');
    form.append('f', new Blob(['<!doctype html><title>report</title><p>report</p>'], { type: 'text/html' }), 'index.html');
    const r = await fetch(`${process.env.E2E_BASE_URL}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}`, ...ownClientAddress() }, body: form });
    expect(r.status).toBe(201);
  });

  const LANGUAGES = {
    de: { browser: 'de-DE', dir: 'ltr', heading: 'Hosting-Konsole', token: 'Admin-Token', signIn: 'Anmelden', projects: 'Projekte', deploys: 'Bereitstellungen', oneFile: '1 Datei', live: 'live', audit: 'Audit-Protokoll' },
    ar: { browser: 'ar-SA', dir: 'rtl', heading: 'وحدة تحكم الاستضافة', token: 'رمز المسؤول', signIn: 'تسجيل الدخول', projects: 'المشاريع', deploys: 'عمليات النشر', oneFile: 'ملف واحد', live: 'مباشر', audit: 'سجل التدقيق' },
  } as const;

  for (const [lang, words] of Object.entries(LANGUAGES)) {
    for (const width of [390, 1280]) {
      test(`/htmls in ${lang} at ${width} px`, async ({ browser }, testInfo) => {
        const phone = width < 640;
        const context = await (phone ? phoneContext : desktopContext)(browser, words.browser);
        const page = await context.newPage();
        const fits = async (what: string) => {
          expect(await page.evaluate(noHorizontalOverflow), `${what} scrolls sideways`).toBe(true);
          expect(await page.evaluate(clippedText), `${what}: clipped text`).toEqual([]);
          await testInfo.attach(`${what}.png`, { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
        };

        await page.goto('/htmls');
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        await expect(page.locator('html')).toHaveAttribute('dir', words.dir);
        await expect(page.getByRole('heading', { name: words.heading })).toBeVisible();
        await expect(page.getByTestId('language-picker')).toHaveValue(lang);
        await fits(`htmls-sign-in-${lang}-${width}`);

        await page.getByLabel(words.token).fill(process.env.E2E_ADMIN_TOKEN!);
        await page.getByRole('button', { name: words.signIn, exact: true }).click();
        await expect(page.getByRole('heading', { name: words.projects })).toBeVisible();
        // The card of the project made above (others' projects of this run may come first).
        await page.getByRole('searchbox').fill(slug);
        const card = page.getByTestId(`project-${slug}`);
        await expect(card).toContainText(`${words.oneFile} · `);
        await card.getByRole('button', { name: words.deploys, exact: true }).click();
        await expect(page.getByTestId(`deploys-${slug}`).getByTestId(/^deploy-/)).toContainText(words.live);
        await expect(page.getByRole('table', { name: words.audit })).toBeVisible();
        await expect(page.getByTestId('storage-chart')).toBeVisible();
        await fits(`htmls-console-${lang}-${width}`);
        await context.close();
      });
    }
  }
});
