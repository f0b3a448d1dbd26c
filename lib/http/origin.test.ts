import { describe, expect, it } from 'vitest';
import { parseEnv } from '../env';
import { decideHost, hostedOriginFor, isForeignBrowserRequest, isSameOriginRequest, isSecureHostedRequest, isSecureRequest, slugOfUrl } from './origin';

const env = (extra: Record<string, string> = {}) => parseEnv({ PORT: '3000', ...extra });
const req = (url: string, headers: Record<string, string> = {}, method = 'GET') => ({
  method,
  url,
  header: (n: string) => headers[n.toLowerCase()],
});

describe('decideHost', () => {
  it('default: the hosted listener serves only /p/; the main one redirects /p/ to it', () => {
    const e = env();
    expect(e.hosted).toEqual({ mode: 'port', port: 3001 });
    expect(decideHost(e, 3001, 'hosted', req('/p/a/x'))).toEqual({ kind: 'hosted', sandbox: false });
    expect(decideHost(e, 3001, 'hosted', req('/api/files'))).toEqual({ kind: 'not-found' });
    expect(decideHost(e, 3001, 'hosted', req('/', { host: 'box.lan:3001' }))).toEqual({ kind: 'redirect', status: 302, location: 'http://box.lan:3000/' });
    expect(decideHost(e, 3001, 'hosted', req('/favicon.ico', { host: 'box.lan:3001' }))).toEqual({ kind: 'not-found' });
    expect(decideHost(e, 3001, 'main', req('/p/a/x?q', { host: 'box.lan:3000' }))).toEqual({ kind: 'redirect', status: 302, location: 'http://box.lan:3001/p/a/x?q' });
    expect(decideHost(e, 3001, 'main', req('/p/a/unlock', { host: 'box.lan:3000' }, 'POST'))).toMatchObject({ status: 307 });
    expect(decideHost(e, 3001, 'main', req('/pricing'))).toEqual({ kind: 'app' });
    expect(decideHost(e, 3001, 'main', req('/htmls'))).toEqual({ kind: 'app' });
  });

  it('default, reached by a loopback name: every project at the root of <slug>.localhost on the hosted port', () => {
    const e = env();
    // The main origin sends /p/<slug>/… to the project's own origin, at its root.
    for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'files.localhost:3000']) {
      expect(decideHost(e, 3001, 'main', req('/p/blog/users/42?tab=1', { host })), host).toEqual({ kind: 'redirect', status: 302, location: 'http://blog.localhost:3001/users/42?tab=1' });
      expect(hostedOriginFor(e, 3001, host, false), host).toBe('http://{slug}.localhost:3001');
    }
    expect(decideHost(e, 3001, 'main', req('/p/blog', { host: 'localhost:3000' }))).toMatchObject({ location: 'http://blog.localhost:3001/' });
    expect(decideHost(e, 3001, 'main', req('/p/blog@abc/?preview=x', { host: 'localhost:3000' }))).toMatchObject({ location: 'http://blog.localhost:3001/p/blog@abc/?preview=x' });
    expect(decideHost(e, 3001, 'main', req('/p/blog/unlock', { host: 'localhost:3000' }, 'POST'))).toEqual({ kind: 'redirect', status: 307, location: 'http://blog.localhost:3001/p/blog/unlock' });
    expect(decideHost(e, 3001, 'main', req('/p/', { host: 'localhost:3000' }))).toEqual({ kind: 'not-found' });
    // The hosted listener serves <slug>.localhost as that project's whole origin.
    const at = (url: string, method = 'GET') => decideHost(e, 3001, 'hosted', req(url, { host: 'blog.localhost:3001' }, method));
    for (const url of ['/', '/users/42', '/assets/index-abc.js', '/api/files', '/p/shop/x']) expect(at(url), url).toEqual({ kind: 'hosted', sandbox: false, site: 'blog' });
    expect(at('/p/blog/about')).toEqual({ kind: 'redirect', status: 302, location: '/about' });
    expect(at('/p/blog/unlock', 'POST')).toEqual({ kind: 'hosted', sandbox: false, site: 'blog' });
    expect(at('/p/blog@abc/')).toEqual({ kind: 'hosted', sandbox: false });
    // The shared form of the hosted port still answers there (links given out before).
    expect(decideHost(e, 3001, 'hosted', req('/p/blog/x', { host: '127.0.0.1:3001' }))).toEqual({ kind: 'hosted', sandbox: false });
    // Another host name, a PUBLIC_URL that is not loopback, or a listener only on another address: one shared origin.
    expect(hostedOriginFor(e, 3001, 'box.lan:3000', false)).toBe('http://box.lan:3001');
    expect(hostedOriginFor(env({ PUBLIC_URL: 'http://files.lan:3000' }), 3001, 'localhost:3000', false)).toBe('http://files.lan:3001');
    expect(hostedOriginFor(env({ PUBLIC_URL: 'http://localhost:3000' }), 3001, 'box.lan:3000', false)).toBe('http://{slug}.localhost:3001');
    expect(hostedOriginFor(env({ HOST: '192.168.1.5' }), 3001, '127.0.0.1:3000', false)).toBe('http://127.0.0.1:3001');
  });

  it('default: the redirect keeps the scheme a trusted proxy reports, and PUBLIC_URL names the host', () => {
    const e = env({ TRUST_PROXY: '1', HOSTED_PORT: '8443' });
    expect(decideHost(e, 8443, 'main', req('/p/a', { host: 'x:3000', 'x-forwarded-proto': 'https' }))).toMatchObject({ location: 'https://x:8443/p/a' });
    const p = env({ PUBLIC_URL: 'http://files.example.com', HOSTED_PORT: '3001' });
    expect(decideHost(p, 3001, 'main', req('/p/a', { host: 'evil.example' }))).toMatchObject({ location: 'http://files.example.com:3001/p/a' });
  });

  it('HOSTED_ORIGIN: only that host serves /p/, and it serves nothing else', () => {
    const e = env({ HOSTED_ORIGIN: 'https://UserContent.example.com/' });
    expect(e.hosted).toEqual({ mode: 'origin', origin: 'https://usercontent.example.com' });
    expect(decideHost(e, null, 'main', req('/p/a/x', { host: 'usercontent.example.com' }))).toEqual({ kind: 'hosted', sandbox: false });
    expect(decideHost(e, null, 'main', req('/htmls', { host: 'usercontent.example.com' }))).toEqual({ kind: 'not-found' });
    expect(decideHost(e, null, 'main', req('/', { host: 'usercontent.example.com' }))).toEqual({ kind: 'not-found' });
    const named = env({ HOSTED_ORIGIN: 'https://u.example.com', PUBLIC_URL: 'https://files.example.com' });
    expect(decideHost(named, null, 'main', req('/', { host: 'u.example.com' }))).toEqual({ kind: 'redirect', status: 302, location: 'https://files.example.com/' });
    expect(decideHost(e, null, 'main', req('/p/a/x', { host: 'files.example.com' }))).toEqual({ kind: 'redirect', status: 302, location: 'https://usercontent.example.com/p/a/x' });
    expect(decideHost(e, null, 'main', req('/api/files', { host: 'files.example.com' }))).toEqual({ kind: 'app' });
  });

  it('per-site HOSTED_ORIGIN: each project at the root of its own host name', () => {
    const e = env({ HOSTED_ORIGIN: 'https://{slug}.pages.example.com' });
    expect(e.hosted).toEqual({ mode: 'per-site', origin: 'https://{slug}.pages.example.com' });
    const blog = (url: string, method = 'GET', host = 'blog.pages.example.com') => decideHost(e, null, 'main', req(url, { host }, method));
    // Every path of the origin is the project's: its index, its files, even a folder named p/.
    for (const url of ['/', '/x', '/assets/index-abc.js', '/api/files', '/p/shop/x', '/htmls']) expect(blog(url), url).toEqual({ kind: 'hosted', sandbox: false, site: 'blog' });
    // Its own /p/<slug> prefix leads to the root; previews and the unlock form keep theirs.
    expect(blog('/p/blog/x?q=1')).toEqual({ kind: 'redirect', status: 302, location: '/x?q=1' });
    expect(blog('/p/blog')).toEqual({ kind: 'redirect', status: 302, location: '/' });
    expect(blog('/p/blog?q')).toEqual({ kind: 'redirect', status: 302, location: '/?q' });
    expect(blog('/p/blog//evil.example/x')).toEqual({ kind: 'redirect', status: 302, location: '/evil.example/x' });
    expect(blog('/p/blog/\\evil.example')).toEqual({ kind: 'redirect', status: 302, location: '/evil.example' });
    expect(blog('/p/blog/unlock', 'POST')).toEqual({ kind: 'hosted', sandbox: false, site: 'blog' });
    expect(blog('/p/blog@abc123/x', 'GET', 'blog.pages.example.com:443')).toEqual({ kind: 'hosted', sandbox: false });
    // The main origin sends /p/<slug>/… to the project's root, previews and posts as they are.
    expect(decideHost(e, null, 'main', req('/p/blog/a/b.html?x', { host: 'files.example.com' }))).toEqual({ kind: 'redirect', status: 302, location: 'https://blog.pages.example.com/a/b.html?x' });
    expect(decideHost(e, null, 'main', req('/p/blog', { host: 'files.example.com' }))).toMatchObject({ location: 'https://blog.pages.example.com/' });
    expect(decideHost(e, null, 'main', req('/p/blog@abc/', { host: 'files.example.com' }))).toMatchObject({ location: 'https://blog.pages.example.com/p/blog@abc/' });
    expect(decideHost(e, null, 'main', req('/p/blog/unlock', { host: 'files.example.com' }, 'POST'))).toEqual({ kind: 'redirect', status: 307, location: 'https://blog.pages.example.com/p/blog/unlock' });
    expect(decideHost(e, null, 'main', req('/files', { host: 'files.example.com' }))).toEqual({ kind: 'app' });
  });

  it("a shared hosted origin sends a root path asked for by a project's page into that project; nothing else", () => {
    const e = env();
    const at = (url: string, referer?: string, method = 'GET', host = 'box.lan:3001') => decideHost(e, 3001, 'hosted', req(url, { host, ...(referer ? { referer } : {}) }, method));
    expect(at('/assets/index-B1x.js', 'http://box.lan:3001/p/demo/')).toEqual({ kind: 'redirect', status: 302, location: '/p/demo/assets/index-B1x.js', byReferer: true });
    expect(at('/icons.svg?v=2', 'http://box.lan:3001/p/demo/users/42?tab=1')).toEqual({ kind: 'redirect', status: 302, location: '/p/demo/icons.svg?v=2', byReferer: true });
    expect(at('/', 'http://box.lan:3001/p/demo/about')).toEqual({ kind: 'redirect', status: 302, location: '/p/demo/', byReferer: true });
    expect(at('/assets/a.js', 'http://box.lan:3001/p/demo@d3ploy/')).toEqual({ kind: 'redirect', status: 302, location: '/p/demo@d3ploy/assets/a.js', byReferer: true });
    expect(at('/assets/a.js', 'http://box.lan:3001/p/demo')).toEqual({ kind: 'redirect', status: 302, location: '/p/demo/assets/a.js', byReferer: true });
    // No Referer, another origin's page, a page outside /p/, or a method that changes things: as before.
    expect(at('/assets/a.js')).toEqual({ kind: 'not-found' });
    expect(at('/')).toEqual({ kind: 'redirect', status: 302, location: 'http://box.lan:3000/' });
    expect(at('/assets/a.js', 'http://box.lan:3000/p/demo/')).toEqual({ kind: 'not-found' });
    expect(at('/assets/a.js', 'https://evil.example/p/demo/')).toEqual({ kind: 'not-found' });
    expect(at('/assets/a.js', 'http://box.lan:3001/')).toEqual({ kind: 'not-found' });
    expect(at('/assets/a.js', 'http://box.lan:3001/p/Demo/')).toEqual({ kind: 'not-found' });
    expect(at('/assets/a.js', 'not a url')).toEqual({ kind: 'not-found' });
    expect(at('/api/x', 'http://box.lan:3001/p/demo/', 'POST')).toEqual({ kind: 'not-found' });
    // The same on a shared HOSTED_ORIGIN; the main origin's own paths are never touched.
    const o = env({ HOSTED_ORIGIN: 'https://u.example.com' });
    expect(decideHost(o, null, 'main', req('/vite.svg', { host: 'u.example.com', referer: 'https://u.example.com/p/demo/' }))).toEqual({ kind: 'redirect', status: 302, location: '/p/demo/vite.svg', byReferer: true });
    expect(decideHost(o, null, 'main', req('/vite.svg', { host: 'files.example.com', referer: 'https://u.example.com/p/demo/' }))).toEqual({ kind: 'app' });
    expect(decideHost(e, 3001, 'main', req('/vite.svg', { host: 'box.lan:3000', referer: 'http://box.lan:3000/p/demo/' }))).toEqual({ kind: 'app' });
  });

  it('HOSTED_PORT=0: the sandbox opt-out serves /p/ on the main origin', () => {
    const e = env({ HOSTED_PORT: '0' });
    expect(e.hosted).toEqual({ mode: 'sandbox' });
    expect(decideHost(e, null, 'main', req('/p/a/x'))).toEqual({ kind: 'hosted', sandbox: true });
  });
});

describe('configuration', () => {
  it('refuses a bare port behind a TLS proxy unless told otherwise', () => {
    expect(() => env({ PUBLIC_URL: 'https://files.example.com' })).toThrow(/HOSTED_ORIGIN/);
    expect(() => env({ TRUST_PROXY: '1' })).toThrow(/reverse_proxy/);
    expect(env({ TRUST_PROXY: '1', HOSTED_PORT: '0' }).hosted.mode).toBe('sandbox');
    expect(env({ TRUST_PROXY: '1', HOSTED_PORT: '4001' }).hosted).toEqual({ mode: 'port', port: 4001 });
    expect(env({ PUBLIC_URL: 'https://f.example.com', HOSTED_ORIGIN: 'https://u.example.com' }).hosted.mode).toBe('origin');
  });

  it('runs the hosted front unless HOSTED_FRONT=off, and refuses another value', () => {
    expect(env().hostedFront).toBe(true);
    expect(env({ HOSTED_FRONT: 'on' }).hostedFront).toBe(true);
    expect(env({ HOSTED_FRONT: 'off' }).hostedFront).toBe(false);
    expect(() => env({ HOSTED_FRONT: 'false' })).toThrow(/HOSTED_FRONT/);
  });

  it('refuses a HOSTED_ORIGIN that is not an origin', () => {
    for (const bad of ['usercontent.example.com', 'https://u.example.com/path', 'ftp://u.example.com', 'https://{slug}.{slug}.example.com', 'https://u.example.com:{slug}']) {
      expect(() => env({ HOSTED_ORIGIN: bad }), bad).toThrow(/HOSTED_ORIGIN/);
    }
  });
});

describe('secure requests and the own origin', () => {
  it('one rule: PUBLIC_URL, else X-Forwarded-Proto only behind a trusted proxy', () => {
    const h = (proto: string) => new Headers({ 'x-forwarded-proto': proto, host: 'x' });
    expect(isSecureRequest(env(), h('https'))).toBe(false);
    expect(isSecureRequest(env({ TRUST_PROXY: '1', HOSTED_PORT: '0' }), h('https'))).toBe(true);
    expect(isSecureRequest(env({ PUBLIC_URL: 'https://a.example', HOSTED_ORIGIN: 'https://b.example' }), h('http'))).toBe(true);
    expect(isSecureHostedRequest(env({ PUBLIC_URL: 'https://a.example', HOSTED_ORIGIN: 'http://b.example' }), h('https'))).toBe(false);
  });

  it("a hosted origin is never the service's own origin", () => {
    const e = env();
    const headers = new Headers({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3001' });
    expect(isSameOriginRequest(e, headers, 'http://127.0.0.1:3000/api/files')).toBe(false);
    expect(isSameOriginRequest(e, new Headers({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' }), 'http://127.0.0.1:3000/api')).toBe(true);
  });

  it('isForeignBrowserRequest: another Origin or a non-same-origin Sec-Fetch-Site; clients sending neither are not browsers', () => {
    const e = env();
    const url = 'http://127.0.0.1:3000/api/auth/logout';
    const h = (extra: Record<string, string>) => new Headers({ host: '127.0.0.1:3000', ...extra });
    expect(isForeignBrowserRequest(e, h({ origin: 'https://evil.example' }), url)).toBe(true);
    expect(isForeignBrowserRequest(e, h({ origin: 'http://127.0.0.1:3001' }), url)).toBe(true);
    expect(isForeignBrowserRequest(e, h({ 'sec-fetch-site': 'same-site' }), url)).toBe(true);
    expect(isForeignBrowserRequest(e, h({ 'sec-fetch-site': 'cross-site' }), url)).toBe(true);
    expect(isForeignBrowserRequest(e, h({ origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' }), url)).toBe(false);
    expect(isForeignBrowserRequest(e, h({}), url)).toBe(false);
  });

  it('hostedOriginFor and slugOfUrl', () => {
    expect(hostedOriginFor(env(), 3001, 'example.org:3000', false)).toBe('http://example.org:3001');
    expect(hostedOriginFor(env({ HOSTED_PORT: '0' }), null, 'x', false)).toBeNull();
    expect(slugOfUrl('/p/abc@deploy1/x')).toBe('abc');
    expect(slugOfUrl('/p/abc')).toBe('abc');
    expect(slugOfUrl('/p/ABC/x')).toBeNull();
  });
});
