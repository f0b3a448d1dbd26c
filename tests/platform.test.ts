import { describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { call, hostedUrl } from './support/http';

// Next's pages: the pages and public/ files.
useFileServer({}, { pages: true });

const DOCUMENTS = ['/privacy-policy.html', '/ios-app-guide.html', '/mac-app-guide.html', '/index.html', '/user-guide.html', '/architecture.html'];

describe('platform routes', () => {
  it.each(DOCUMENTS)('GET %s — a static HTML document', async (path) => {
    const r = await call('GET', path);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(r.text).toMatch(/<html/i);
    expect(r.text.length).toBeGreaterThan(1500);
    // One stylesheet for all six documents, served beside them.
    expect(r.text).toContain('<link rel="stylesheet" href="/docs.css">');
  });

  it('GET /docs.css — the documents\' shared stylesheet', async () => {
    const r = await call('GET', '/docs.css');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/css/);
    expect(r.text).toContain('prefers-color-scheme:dark');
  });

  it('GET /other.html — any other .html path is a static file: 404 when absent', async () => {
    expect((await call('GET', '/no-such-page.html')).status).toBe(404);
  });

  it('GET /admin — redirects to /htmls', async () => {
    const r = await call('GET', '/admin');
    expect([307, 308]).toContain(r.status);
    expect(new URL(r.headers.get('location')!, 'http://x').pathname).toBe('/htmls');
  });

  it.each(['/htmls', '/files'])('GET %s — the console page, sent with a nonce-based Content-Security-Policy', async (path) => {
    const r = await call('GET', path);
    expect(r.status).toBe(200);
    const csp = r.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-inline\' \'nonce'); // scripts never inline-allowed
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    // Every script tag Next renders carries this request's nonce.
    const scripts = [...r.text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) expect(s).toContain(`nonce="${nonce}"`);
    // A fresh nonce per request.
    const again = await call('GET', path);
    expect(again.headers.get('content-security-policy')).not.toBe(csp);
  });

  it('GET / — the public directory, with an empty state', async () => {
    const r = await call('GET', '/');
    expect(r.status).toBe(200);
    expect(r.text).toContain('Sites');
  });

  it('GET /p/<unknown> and /f/<unknown>/<file> — 404 from the fast path', async () => {
    expect((await call('GET', '/p/nothing-here/index.html', { base: hostedUrl() })).status).toBe(404);
    expect((await call('GET', '/f/nothing/file.txt')).status).toBe(404);
    expect((await call('GET', '/f/nothing')).status).toBe(404);
  });

  it('answers 404 JSON for an unknown /api route', async () => {
    const r = await call('GET', '/api/nope');
    expect(r.status).toBe(404);
  });
});
