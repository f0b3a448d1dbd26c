import { describe, expect, it } from 'vitest';
import { projectLocaleChoicePath } from './locale-picker';
import { messagePage, offlinePageHtml, passwordPage } from './password-page';

describe('guest pages', () => {
  it('messagePage — the download limit gets its own explanation and a link home', () => {
    const page = messagePage(410, 'Download limit reached', 'download_limit');
    expect(page.status).toBe(410);
    expect(page.body).toContain('Download limit reached');
    expect(page.body).toContain('downloaded as many times as its owner allowed');
    expect(page.body).toMatch(/<a href="[^"]*\/">← htmls home<\/a>/);
  });

  it('messagePage — an unknown code shows the escaped message', () => {
    const page = messagePage(400, '<b>no</b>', 'invalid_request');
    expect(page.body).toContain('&lt;b&gt;no&lt;/b&gt;');
  });

  it('messagePage — an unexplained error reads in the guest’s language: its title by status, the code’s meaning', () => {
    const page = messagePage(400, 'Invalid "name": too long', 'invalid_request', 'de').body as string;
    expect(page).toContain('<html lang="de" dir="ltr">');
    expect(page).toContain('<title>Ungültiger Aufruf</title>');
    expect(page).toContain('<h1>Ungültiger Aufruf</h1>');
    expect(page).not.toContain('too long');
    const ar = messagePage(405, 'Only GET', 'method_not_allowed', 'ar').body as string;
    expect(ar).toContain('<html lang="ar" dir="rtl">');
    expect(ar).toContain('<h1>طريقة غير مسموح بها</h1>');
    // An unknown code keeps the server's sentence, marked as English.
    expect(messagePage(500, 'boom', 'something_new', 'de').body).toContain('<h1>Fehler</h1>\n<p lang="en" dir="ltr">boom</p>');
  });

  it('passwordPage — the picker posts where its caller says (a project’s: /p/<slug>/locale, on the hosted origin), else to the main origin’s /locale', () => {
    const action = (pickerAction?: string) => /<form class="lang" method="post" action="([^"]+)"/.exec(passwordPage({ status: 401, subject: 'project', locale: 'en', action: '/p/site@dpl_1a2b/unlock', next: '/p/site/', pickerAction }).body as string)?.[1];
    expect(action(projectLocaleChoicePath('site'))).toBe('/p/site/locale');
    expect(action()).toBe('/locale');
  });

  it('passwordPage, messagePage and offlinePageHtml — one layout: viewport, dark mode, border-box sizing', () => {
    const pages = [
      passwordPage({ status: 401, subject: 'share', locale: 'en', action: '/f/x/unlock' }).body as string,
      messagePage(404, 'x', 'not_found').body as string,
      offlinePageHtml(),
    ];
    for (const html of pages) {
      expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(html).toContain('prefers-color-scheme:dark');
      expect(html).toContain('box-sizing:border-box');
      expect(html).toContain('← htmls home');
    }
  });
});
