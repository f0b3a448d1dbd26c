import { describe, expect, it } from 'vitest';
import { applyInjection, BASE_TAG, planInjection, VIEWPORT_TAG } from './rewrite-html';

const rewrite = (s: string) => {
  const b = Buffer.from(s);
  return applyInjection(b, planInjection(b)).toString();
};
const count = (s: string, needle: string) => s.split(needle).length - 1;

describe('HTML injection', () => {
  it('injects both right after <head>', () => {
    expect(rewrite('<!doctype html><html><head><title>x</title></head><body>hi</body></html>')).toBe(
      `<!doctype html><html><head>${BASE_TAG}${VIEWPORT_TAG}<title>x</title></head><body>hi</body></html>`,
    );
  });

  it('handles <HEAD> with attributes and upper case', () => {
    const out = rewrite('<HTML><HEAD lang="en"><TITLE>x</TITLE></HEAD><BODY></BODY></HTML>');
    expect(out).toBe(`<HTML><HEAD lang="en">${BASE_TAG}${VIEWPORT_TAG}<TITLE>x</TITLE></HEAD><BODY></BODY></HTML>`);
  });

  it('does not mistake <header> for <head>', () => {
    const out = rewrite('<html><body><header>x</header></body></html>');
    expect(out).toBe(`<html>${BASE_TAG}${VIEWPORT_TAG}<body><header>x</header></body></html>`);
  });

  it('adds nothing when both exist, and only what is missing otherwise', () => {
    const both = '<html><head><base target="_blank"><meta name="viewport" content="width=500"></head></html>';
    expect(rewrite(both)).toBe(both);
    const onlyViewport = rewrite('<head><meta content="x" name=viewport></head>');
    expect(count(onlyViewport, '<base')).toBe(1);
    expect(count(onlyViewport, 'viewport')).toBe(1);
    const withBaseHref = rewrite('<head><base href="/x/"></head>');
    expect(count(withBaseHref, '<base')).toBe(1);
    expect(count(withBaseHref, 'name="viewport"')).toBe(1);
  });

  it('ignores tags inside comments', () => {
    const out = rewrite('<!-- <head><base target="_blank"><meta name="viewport"> --><html><head></head></html>');
    expect(out).toBe(`<!-- <head><base target="_blank"><meta name="viewport"> --><html><head>${BASE_TAG}${VIEWPORT_TAG}</head></html>`);
  });

  it('keeps a BOM first and injects after the doctype when there is no <html> or <head>', () => {
    const out = rewrite('\ufeff<!DOCTYPE html><p>hello</p>');
    expect(out).toBe(`\ufeff<!DOCTYPE html>${BASE_TAG}${VIEWPORT_TAG}<p>hello</p>`);
    expect(rewrite('just text')).toBe(`${BASE_TAG}${VIEWPORT_TAG}just text`);
  });

  it('does not look for tags inside scripts or after </head>', () => {
    const out = rewrite('<head><script>var s = "<base target=_blank>";</script></head><body><meta name="viewport"></body>');
    expect(count(out, BASE_TAG)).toBe(1);
    expect(count(out, VIEWPORT_TAG)).toBe(1);
  });

  it('keeps multi-byte text intact (offsets are bytes)', () => {
    const out = rewrite('<html><head><title>视频 ✓</title></head></html>');
    expect(out).toContain('<title>视频 ✓</title>');
    expect(out.indexOf(BASE_TAG)).toBe('<html><head>'.length);
  });

  it('is idempotent', () => {
    const once = rewrite('<html><head></head></html>');
    expect(rewrite(once)).toBe(once);
  });

  it.each(['title', 'script', 'style', 'textarea'])('finds base and viewport after a <%s> element, in either order', (el) => {
    const raw = `<${el}>a <base> or <meta name="viewport"> in raw text</${el}>`;
    const own = '<base target="_blank"><meta name="viewport" content="width=device-width">';
    for (const head of [`${raw}${own}`, `${own}${raw}`]) {
      const page = `<!doctype html><html><head>${head}</head><body>x</body></html>`;
      expect(rewrite(page), head).toBe(page);
    }
    const missing = rewrite(`<html><head>${raw}<meta name="viewport" content="w"></head><body></body></html>`);
    expect(count(missing, BASE_TAG)).toBe(1);
    expect(count(missing, 'name="viewport"')).toBe(2); // the raw-text copy is text, not an element
  });

  it('a title first, then its own base and viewport: nothing injected (the common head)', () => {
    const page = '<!doctype html><html lang="en"><head><title>T</title><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><base href="./" target="_self"></head><body></body></html>';
    expect(rewrite(page)).toBe(page);
  });

  it('sets a base href for a page served away from its folder, unless the page has a base', () => {
    const b = Buffer.from('<html><head><title>x</title></head></html>');
    expect(applyInjection(b, planInjection(b, { baseHref: '/p/s/' })).toString()).toContain('<head><base href="/p/s/" target="_blank">');
    const own = Buffer.from('<html><head><base href="/x/"><meta name="viewport" content="w"></head></html>');
    expect(planInjection(own, { baseHref: '/p/s/' })).toBeNull();
  });
});
