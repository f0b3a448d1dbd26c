import http from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import sizes from '../assets/icons.json';
import { useFileServer } from './support/file-server';
import { baseUrl, call } from './support/http';

// Next's pages: the pages, manifests and public/ files.
useFileServer({}, { pages: true });

const get = (path: string, headers: Record<string, string> = {}) => fetch(baseUrl() + path, { headers, redirect: 'manual' });

/** Width and height from a PNG's IHDR chunk. */
function pngSize(buf: Buffer): { width: number; height: number } {
  expect(buf.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

async function bytes(path: string): Promise<{ status: number; type: string | null; buf: Buffer }> {
  const r = await get(path);
  return { status: r.status, type: r.headers.get('content-type'), buf: Buffer.from(await r.arrayBuffer()) };
}

describe('icons', () => {
  it('GET /favicon.ico — an icon with every favicon size, so no page asks for a missing one', async () => {
    const { status, type, buf } = await bytes('/favicon.ico');
    expect(status).toBe(200);
    expect(type).toBe('image/x-icon');
    expect(buf.readUInt16LE(2)).toBe(1);
    const count = buf.readUInt16LE(4);
    const found = [];
    for (let i = 0; i < count; i++) {
      const e = 6 + 16 * i;
      const image = buf.subarray(buf.readUInt32LE(e + 12), buf.readUInt32LE(e + 12) + buf.readUInt32LE(e + 8));
      expect(pngSize(image).width).toBe(buf.readUInt8(e));
      found.push(buf.readUInt8(e));
    }
    expect(found).toEqual(sizes.favicon);
  });

  it('GET /apple-touch-icon.png — the 180 px icon iOS asks for at the root', async () => {
    for (const path of ['/apple-touch-icon.png', '/apple-touch-icon-precomposed.png']) {
      const { status, type, buf } = await bytes(path);
      expect(status).toBe(200);
      expect(type).toBe('image/png');
      expect(pngSize(buf)).toEqual({ width: 180, height: 180 });
    }
  });

  it.each(['/', '/files', '/htmls'])('GET %s — links the favicon, the SVG icon and the Apple touch icons', async (path) => {
    const html = (await call('GET', path)).text;
    expect(html).toMatch(/<link rel="icon" href="\/favicon\.ico"/);
    expect(html).toMatch(/<link rel="icon" href="\/icons\/icon\.svg" type="image\/svg\+xml"/);
    for (const s of sizes.apple) {
      const href = s === 180 ? '/icons/apple-touch-icon.png' : `/icons/apple-touch-icon-${s}.png`;
      expect(html).toContain(`<link rel="apple-touch-icon" href="${href}" sizes="${s}x${s}"`);
      expect(pngSize((await bytes(href)).buf).width).toBe(s);
    }
    expect(html).toContain('<meta name="mobile-web-app-capable" content="yes"');
    expect(html).toContain('<meta name="apple-mobile-web-app-title" content="htmls"');
    expect(html).toContain('<meta name="theme-color" content="#ffffff" media="(prefers-color-scheme: light)"/>');
    expect(html).toContain('<meta name="theme-color" content="#18181b" media="(prefers-color-scheme: dark)"/>');
  });
});

describe('web app manifests', () => {
  it('GET /files/manifest.webmanifest — installable: name, standalone, start_url in scope, icons that exist at their sizes, maskable, share target', async () => {
    const r = await get('/files/manifest.webmanifest');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const m = await r.json();
    expect(m).toMatchObject({ id: '/files', short_name: 'htmls', start_url: '/files', scope: '/files', display: 'standalone' });
    expect(m.name).toBeTruthy();
    expect(m.theme_color).toBe('#ffffff');
    expect(m.background_color).toBe('#fafafa');
    for (const icon of m.icons.filter((i: { type: string }) => i.type === 'image/png')) {
      const { status, buf } = await bytes(icon.src);
      expect(status).toBe(200);
      const [w, h] = icon.sizes.split('x').map(Number);
      expect(pngSize(buf)).toEqual({ width: w, height: h });
    }
    const any = m.icons.filter((i: { purpose: string }) => i.purpose === 'any').map((i: { sizes: string }) => i.sizes);
    expect(any).toEqual(expect.arrayContaining(['192x192', '512x512']));
    const maskable = m.icons.filter((i: { purpose: string }) => i.purpose === 'maskable').map((i: { sizes: string }) => i.sizes);
    expect(maskable).toEqual(['192x192', '512x512']);
    expect(m.share_target).toEqual({
      action: '/files/share-target',
      method: 'POST',
      enctype: 'multipart/form-data',
      params: { title: 'title', text: 'text', url: 'url', files: [{ name: 'files', accept: ['*/*'] }] },
    });
    expect(m.share_target.action.startsWith(m.scope)).toBe(true);
    // Shortcuts open the phone layout's tabs, with an icon that exists.
    expect(m.shortcuts.map((s: { name: string; url: string }) => [s.name, s.url])).toEqual([
      ['Upload', '/files'],
      ['Shares', '/files#shares'],
      ['Settings', '/files#settings'],
    ]);
    for (const s of m.shortcuts) expect(pngSize((await bytes(s.icons[0].src)).buf)).toEqual({ width: 96, height: 96 });
  });

  it('GET /htmls/manifest.webmanifest — the administrator console as its own app, without a share target', async () => {
    const m = await (await get('/htmls/manifest.webmanifest')).json();
    expect(m).toMatchObject({ id: '/htmls', start_url: '/htmls', scope: '/htmls', display: 'standalone' });
    expect(m.share_target).toBeUndefined();
  });

  it('GET /files/manifest.webmanifest and /htmls/… — in the request’s language, with lang and dir, kept privately per language', async () => {
    const en = await get('/files/manifest.webmanifest');
    expect(await en.json()).toMatchObject({ lang: 'en', dir: 'ltr', name: 'htmls — share files' });
    // One URL, a language per visitor: never one copy in a shared cache.
    expect(en.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(en.headers.get('vary')).toMatch(/Accept-Language/);
    expect(en.headers.get('vary')).toMatch(/Cookie/);

    // /files asks for it with the visitor's cookies (a manifest is fetched without them otherwise).
    expect((await call('GET', '/files')).text).toContain('<link rel="manifest" href="/files/manifest.webmanifest" crossorigin="use-credentials"/>');
    const de = await (await get('/files/manifest.webmanifest', { 'Accept-Language': 'de-DE,de;q=0.9' })).json();
    expect(de).toMatchObject({ lang: 'de', dir: 'ltr', name: 'htmls — Dateien teilen', short_name: 'htmls', id: '/files' });
    expect(de.description).toContain('Freigaben');
    expect(de.shortcuts.map((s: { name: string }) => s.name)).toEqual(['Hochladen', 'Freigaben', 'Einstellungen']);

    // The picker's cookie before Accept-Language; Arabic right to left.
    const ar = await (await get('/htmls/manifest.webmanifest', { 'Accept-Language': 'de', Cookie: 'htmls_locale=ar' })).json();
    expect(ar).toMatchObject({ lang: 'ar', dir: 'rtl', name: 'htmls — الإدارة', id: '/htmls' });
    // No language of ours: DEFAULT_LOCALE (English here).
    expect(await (await get('/htmls/manifest.webmanifest', { 'Accept-Language': 'sw' })).json()).toMatchObject({ lang: 'en', short_name: 'htmls admin' });
  });

  it.each([
    ['/files', '/files/manifest.webmanifest'],
    ['/htmls', '/htmls/manifest.webmanifest'],
  ])('GET %s — links its manifest, and its policy lets the service worker and manifest load', async (path, manifest) => {
    const r = await call('GET', path);
    // With the visitor's cookies, so the manifest comes in the page's language.
    expect(r.text).toContain(`<link rel="manifest" href="${manifest}" crossorigin="use-credentials"`);
    const csp = r.headers.get('content-security-policy')!;
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });
});

describe('service worker and share target', () => {
  it('GET /sw.js — the worker script, served as JavaScript from the root so it may control /files and /htmls', async () => {
    const r = await get('/sw.js');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/javascript/);
    const js = await r.text();
    expect(js).toContain("addEventListener('fetch'");
  });

  it('GET /offline — the page the worker shows without a network, in the guest layout with a way back', async () => {
    const r = await get('/offline');
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain('You are offline');
    expect(html).toContain('Try again');
    expect(html).toContain('<a href="/">');
  });

  it('POST /files/share-target — without a worker, opens the app (303) and says the files did not arrive, without reading the body', async () => {
    const form = new FormData();
    form.append('files', new Blob([Buffer.alloc(12 * 1024 * 1024, 1)]), 'big.bin');
    const encoded = new Response(form);
    // On a connection of its own: fetch may send this POST on a keep-alive connection an earlier
    // test left idle, which the server's keep-alive timer can close first on a loaded machine, and
    // no client sends a POST again (a loaded CI run failed with "read ECONNRESET", no answer read).
    const r = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(`${baseUrl()}/files/share-target`, {
        method: 'POST',
        agent: false,
        headers: { 'Content-Type': encoded.headers.get('content-type')!, Connection: 'keep-alive' },
      }, resolve);
      req.on('error', reject); // after the answer, a cut-off rest of the body is fine
      Readable.fromWeb(encoded.body as import('node:stream/web').ReadableStream).pipe(req);
    });
    r.resume();
    r.socket.destroy();
    expect(r.statusCode).toBe(303);
    expect(r.headers.location).toBe('/files?shared=unavailable');
    // Not through the proxy: it would cap and buffer the body.
    expect(r.headers['content-security-policy']).toBeUndefined();
  });
});
