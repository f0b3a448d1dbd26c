import { expect, test, type Page } from '@playwright/test';
import { plainWords } from '../lib/i18n/pseudo';
import { TEST_ADMIN_TOKEN } from '../tests/support/server';
import { ownClientAddress } from './support/client-address';
import { useConsoleSession } from './support/console-session';
import { createFileRequest, createMember, createShare, useOwnServer } from './support/seed';

// The pseudo-locale run (issue 40, item 6; docs/translations.md): a server of its own with
// PSEUDO_LOCALE=1 writes English in accented, 40 % longer text. Every translated page is
// opened in Chromium, and every word a person reads or hears there (the visible text, and the
// alt, title, placeholder and aria-label of what is shown) must be the pseudo-locale's: a plain
// ASCII word is a string that does not come from the message files. Longer text must not
// push the page sideways either, at 390 px or on a desktop.
test.use({ extraHTTPHeaders: ownClientAddress() });

const ownServer = useOwnServer({ PSEUDO_LOCALE: '1' });

/**
 * Words that are not ours to translate: what the test itself wrote (names, notes, file names),
 * the product's name, and what Intl writes for English (month and weekday names, units,
 * relative times), which the pages format in the reader's language already.
 */
const DATA = new Set(['htmls', 'Pseudo', 'Tester', 'report', 'pdf', 'PDF', 'notes', 'txt', 'clip', 'site', 'index', 'html', 'pseudosite', 'pseudolocked']);
const INTL =
  /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|January|February|March|April|June|July|August|September|October|November|December|Mon|Tue|Wed|Thu|Fri|Sat|Sun|AM|PM|[kKMGT]?B|bytes?|in|ago|now|today|tomorrow|yesterday|this|next|last|(second|minute|hour|day|week|month|year)s?|and|or)$/;

/** The plain ASCII words a person meets on the page, each with where it stands. */
async function untranslated(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const shown = (el: Element) => {
      const box = (el as HTMLElement).getBoundingClientRect?.();
      const style = getComputedStyle(el);
      return style.visibility !== 'hidden' && style.display !== 'none' && !!box && (box.width > 0 || box.height > 0);
    };
    const out: string[] = [];
    // The language picker names each language in its own name, by design.
    const skip = (el: Element | null) => !!el?.closest('select[data-testid="language-picker"], script, style, noscript, code, pre, bdi');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || skip(el) || !shown(el) || !n.textContent?.trim()) continue;
      out.push(n.textContent.trim());
    }
    for (const el of document.querySelectorAll('[alt], [title], [placeholder], [aria-label]')) {
      if (skip(el) || !shown(el)) continue;
      for (const a of ['alt', 'title', 'placeholder', 'aria-label']) {
        const v = el.getAttribute(a);
        if (v?.trim()) out.push(`${v.trim()} (${a} of <${el.tagName.toLowerCase()}>)`);
      }
    }
    out.push(document.title);
    return out;
  });
  return texts.filter((t) => plainWords(t.replace(/ \((alt|title|placeholder|aria-label) of <\w+>\)$/, '')).some((w) => !DATA.has(w) && !INTL.test(w)));
}

const noHorizontalOverflow = () => document.documentElement.scrollWidth <= window.innerWidth;

/** Opens `url` at a phone's and a desktop's width: no untranslated word, nothing wider than the screen. */
async function check(page: Page, url: string, ready: (page: Page) => Promise<void>) {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto(url);
    await ready(page);
    expect(await untranslated(page), `${url} at ${viewport.width} px`).toEqual([]);
    expect(await page.evaluate(noHorizontalOverflow), `${url} at ${viewport.width} px scrolls sideways`).toBe(true);
  }
}

/** A page is written once its heading is: pseudo-locale text starts with ⟦. */
const headed = async (page: Page) => {
  await expect(page.locator('h1').first()).toContainText('⟦');
};

test('every translated page, written in the pseudo-locale, holds no untranslated word and no sideways scroll', async ({ page, browser }) => {
  const member = await createMember('Pseudo Tester');
  const files = { 'report.pdf': Buffer.from('%PDF-1.4 pseudo'), 'notes.txt': Buffer.from('pseudo notes') };

  const share = await createShare(member.token, files);
  await check(page, share.url.startsWith('http') ? share.url : ownServer().url + share.url, headed);

  const locked = await createShare(member.token, { 'notes.txt': Buffer.from('locked notes') }, { password: 'a share password' });
  await check(page, locked.url.startsWith('http') ? locked.url : ownServer().url + locked.url, headed);

  const request = await createFileRequest(member.token, { max_files: 3, allowed_types: ['.pdf', 'video/*'] });
  await check(page, request.url.startsWith('http') ? request.url : ownServer().url + request.url, headed);

  const lockedRequest = await createFileRequest(member.token, { password: 'a request password' });
  await check(page, lockedRequest.url.startsWith('http') ? lockedRequest.url : ownServer().url + lockedRequest.url, headed);

  // A listed project for the directory, and one behind a password on the hosted origin.
  const upload = async (slug: string, password?: string) => {
    const form = new FormData();
    form.append('slug', slug);
    if (password) form.append('password', password);
    form.append('f', new Blob(['<!doctype html><title>pseudosite</title><p>pseudosite</p>'], { type: 'text/html' }), 'index.html');
    const r = await fetch(`${ownServer().url}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...ownClientAddress() }, body: form });
    expect(r.status).toBe(201);
  };
  await upload('pseudosite');
  await upload('pseudolocked', 'a site password');
  await check(page, `${ownServer().url}/`, headed);
  await check(page, `${ownServer().hostedUrl}/p/pseudolocked/`, headed);

  // /files: its sign-in screen, then a member's console with a share in its list (the parts of
  // it translated so far: the shell, uploads and shares; Settings' panels are not yet).
  await check(page, `${ownServer().url}/files`, headed);
  await useConsoleSession(page.context(), member, ownServer().url);
  await check(page, `${ownServer().url}/files`, async (p) => {
    await expect(p.getByTestId('signed-in-as')).toBeVisible();
    await expect(p.getByTestId('downloads').first()).toContainText('⟦');
  });

  // /htmls: its sign-in screen, then the console signed in with the Admin Token (in a context of
  // its own: the member's session above would be the one the console's API calls name): the
  // projects uploaded above (one's deploys opened), the publishing form, the audit log and its chart.
  const admin = await browser.newContext({ extraHTTPHeaders: ownClientAddress() });
  const adminPage = await admin.newPage();
  await check(adminPage, `${ownServer().url}/htmls`, headed);
  await adminPage.locator('input[name="token"]').fill(TEST_ADMIN_TOKEN);
  await adminPage.locator('button[type="submit"]').click();
  await expect(adminPage.getByTestId('project-pseudosite')).toBeVisible();
  await check(adminPage, `${ownServer().url}/htmls`, async (p) => {
    // Its buttons with aria-expanded: Files, Deploys, Domains.
    await p.getByTestId('project-pseudosite').locator('button[aria-expanded]').nth(1).click();
    await expect(p.getByTestId('deploys-pseudosite').getByTestId(/^deploy-/).first()).toContainText('⟦');
    await expect(p.getByTestId('audit-row').first()).toBeVisible();
    await expect(p.getByTestId('storage-chart')).toBeVisible();
  });
  await admin.close();

  // The explained error pages and the offline page.
  await check(page, `${ownServer().url}/f/doesnotexist0`, headed);
  await check(page, `${ownServer().url}/offline`, headed);
});
