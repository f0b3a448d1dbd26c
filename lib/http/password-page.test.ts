import { describe, expect, it } from 'vitest';
import { messagePage, offlinePageHtml, passwordPage } from './password-page';

describe('guest pages', () => {
  it('messagePage — the download limit gets its own explanation and a link home', () => {
    const page = messagePage(410, 'Expired', 'Download limit reached', 'download_limit');
    expect(page.status).toBe(410);
    expect(page.body).toContain('Download limit reached');
    expect(page.body).toContain('downloaded as many times as its owner allowed');
    expect(page.body).toMatch(/<a href="[^"]*\/">← htmls home<\/a>/);
  });

  it('messagePage — an unknown code shows the escaped message', () => {
    const page = messagePage(400, 'Bad request', '<b>no</b>', 'invalid_request');
    expect(page.body).toContain('&lt;b&gt;no&lt;/b&gt;');
  });

  it('passwordPage, messagePage and offlinePageHtml — one layout: viewport, dark mode, border-box sizing', () => {
    const pages = [
      passwordPage({ status: 401, subject: 'share', locale: 'en', action: '/f/x/unlock' }).body as string,
      messagePage(404, 'Not found', 'x', 'not_found').body as string,
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
