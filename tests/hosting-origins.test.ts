import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frontHits, migratedServiceEnv, useFileServer } from './support/file-server';
import { uploadSite, site } from './support/hosting';
import { adminSession, baseUrl, call, callAs, hostedUrl } from './support/http';
import { startInProcess, type InProcessServer } from './support/in-process';
import { freePort } from './support/server';

// Next's pages: the /htmls console.
useFileServer({}, { pages: true });

/**
 * A HOSTED_ORIGIN service runs in this process beside the file's server, without pages (Next is
 * one per process): its 404s on the hosted host name must be the host decision's, not the
 * missing pages' (which would answer /htmls and / with 404 on any host name).
 */
const NO_PAGES = 'This service runs without pages';
/** A 404 on `host` asked for as JSON, where the missing pages' answer names itself. */
const json404 = async (host: string, url: string) => {
  const r = await callAs(host, 'GET', url, { headers: { Accept: 'application/json' } });
  expect(r.status, url).toBe(404);
  return r.text;
};

describe('the hosted origin by default (a second listener)', () => {
  let slug: string;
  beforeAll(async () => {
    slug = (await uploadSite({ 'index.html': '<p>on its own origin</p>' })).json.project.slug;
  });

  it("GET /p/:slug on the main origin reached by a loopback name — 302 to the project's own origin, <slug>.localhost on the hosted port, at its root", async () => {
    const hostedPort = new URL(hostedUrl()).port;
    const r = await call('GET', `/p/${slug}/index.html?x=1`);
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe(`http://${slug}.localhost:${hostedPort}/index.html?x=1`);
    const named = await callAs(`localhost:${new URL(baseUrl()).port}`, 'GET', `${baseUrl()}/p/${slug}`);
    expect(named.headers.get('location')).toBe(`http://${slug}.localhost:${hostedPort}/`);
  });

  it('GET /p/:slug on the main origin reached by another host name — 302 to the same path on the hosted port, shared by every project', async () => {
    const r = await callAs(`box.lan:${new URL(baseUrl()).port}`, 'GET', `${baseUrl()}/p/${slug}/index.html?x=1`);
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe(`http://box.lan:${new URL(hostedUrl()).port}/p/${slug}/index.html?x=1`);
  });

  it('POST /p/:slug/unlock on the main origin — 307, so the form post stays a post', async () => {
    const r = await call('POST', `/p/${slug}/unlock`, { body: { password: 'x' } });
    expect(r.status).toBe(307);
    expect(r.headers.get('location')).toBe(`http://${slug}.localhost:${new URL(hostedUrl()).port}/p/${slug}/unlock`);
  });

  it("<slug>.localhost on the hosted port is the project's whole origin; another project's path there is never that project's page, not even from the front's kept replies", async () => {
    const a = (await uploadSite({ 'index.html': '<p>local a</p>', 'users.html': '<p>users of a</p>' })).json.project.slug;
    const b = (await uploadSite({ 'index.html': '<p>local b</p>' })).json.project.slug;
    const hostedPort = new URL(hostedUrl()).port;
    const on = (project: string, path: string) => callAs(`${project}.localhost:${hostedPort}`, 'GET', `${hostedUrl()}${path}`);
    // Served at the root, and again by the hosted front itself from the reply it kept.
    for (let i = 0; i < 2; i++) expect((await on(a, '/')).text).toContain('local a');
    const hits = frontHits();
    expect((await on(a, '/')).text).toContain('local a');
    expect(frontHits()).toBe(hits + 1);
    expect((await on(a, '/users')).text).toContain('users of a');
    expect([(await on(a, `/p/${a}/users?x`)).status, (await on(a, `/p/${a}/users?x`)).headers.get('location')]).toEqual([302, '/users?x']);
    // The same URL on the other project's origin is that project's.
    expect((await on(b, '/')).text).toContain('local b');
    // b's page, kept by the front for the shared form of the port, is not a's file /p/<b>/.
    for (let i = 0; i < 3; i++) expect((await site('GET', `/p/${b}/`)).text).toContain('local b');
    const cross = await on(a, `/p/${b}/`);
    expect(cross.status).toBe(404);
    expect(cross.text).not.toContain('local b');
    // The console and the API are not there either.
    for (const path of ['/htmls', '/api/files']) expect((await on(a, path)).status, path).toBe(404);
  });

  it("the console reached as localhost links every project to its own origin", async () => {
    const page = await callAs(`localhost:${new URL(baseUrl()).port}`, 'GET', `${baseUrl()}/htmls`);
    expect(page.text).toContain(`{slug}.localhost:${new URL(hostedUrl()).port}`);
    const other = await callAs(`box.lan:${new URL(baseUrl()).port}`, 'GET', `${baseUrl()}/htmls`);
    expect(other.text).not.toContain('{slug}');
  });

  it('GET /p/:slug/* on the hosted origin — the site, without a sandbox', async () => {
    const r = await site('GET', `/p/${slug}/`);
    expect(r.status).toBe(200);
    expect(r.text).toContain('on its own origin');
    expect(r.headers.get('content-security-policy')).toBeNull();
  });

  it('the hosted origin serves no console, API, share page or static document; its root leads home', async () => {
    const root = await site('GET', '/');
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe(`${baseUrl()}/`);
    for (const path of ['/htmls', '/files', '/api/auth/check', '/api/files', '/f/abc', '/f/abc/x.txt', '/user-guide.html', '/_next/static/x.js', '/admin']) {
      const r = await site('GET', path);
      expect(r.status, path).toBe(404);
    }
    const { cookie } = await adminSession();
    const del = await site('DELETE', `/api/projects/${slug}`, { cookie });
    expect(del.status).toBe(404);
    expect((await site('GET', `/p/${slug}/`)).status).toBe(200);
  });

  it("a root path asked for by one of a project's pages is sent into that project; without such a Referer it is 404", async () => {
    const vite = (await uploadSite({ 'index.html': '<script type="module" src="/assets/index-B1x.js"></script>', 'assets/index-B1x.js': 'console.log(1)', 'icons.svg': '<svg/>' })).json.project.slug;
    const page = `${hostedUrl()}/p/${vite}/users/42`;
    const js = await site('GET', '/assets/index-B1x.js?v=1', { headers: { Referer: page } });
    expect(js.status).toBe(302);
    expect(js.headers.get('location')).toBe(`/p/${vite}/assets/index-B1x.js?v=1`);
    // Kept by the browser for that Referer only: the same page's next view costs no round trip.
    expect(js.headers.get('cache-control')).toBe('private, max-age=300');
    expect(js.headers.get('vary')).toBe('Referer');
    const followed = await site('GET', '/icons.svg', { headers: { Referer: page }, redirect: 'follow' });
    expect([followed.status, followed.text]).toEqual([200, '<svg/>']);
    expect((await site('GET', '/', { headers: { Referer: page } })).headers.get('location')).toBe(`/p/${vite}/`);
    // No Referer, a Referer from another origin (the main one) or from outside /p/: nobody's file.
    expect((await site('GET', '/assets/index-B1x.js')).status).toBe(404);
    expect((await site('GET', '/assets/index-B1x.js', { headers: { Referer: `${baseUrl()}/p/${vite}/` } })).status).toBe(404);
    expect((await site('GET', '/assets/index-B1x.js', { headers: { Referer: `${hostedUrl()}/` } })).status).toBe(404);
    expect((await site('POST', '/api/x', { headers: { Referer: page } })).status).toBe(404);
    // A page of another project never reaches this one's files: the path is that project's.
    const other = (await uploadSite({ 'index.html': 'other' })).json.project.slug;
    const cross = await site('GET', '/assets/index-B1x.js', { headers: { Referer: `${hostedUrl()}/p/${other}/` }, redirect: 'follow' });
    expect(cross.status).toBe(404);
  });

  it("a hosted page's origin cannot change anything through /api with the administrator's cookie", async () => {
    // The cookie is host-scoped, not port-scoped: a browser sends it along. The Origin check refuses.
    const { cookie } = await adminSession();
    const evil = { cookie, headers: { Origin: hostedUrl() } };
    const r = await call('PATCH', `/api/projects/${slug}`, { ...evil, body: { note: 'defaced' } });
    expect(r.status).toBe(403);
    expect(r.json.code).toBe('forbidden');
    const del = await call('DELETE', `/api/projects/${slug}`, evil);
    expect(del.status).toBe(403);
    // Reads answer without CORS, so a script on the hosted origin cannot see them.
    const list = await call('GET', '/api/files', evil);
    expect(list.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await call('OPTIONS', '/api/files', { headers: { Origin: hostedUrl(), 'Access-Control-Request-Method': 'DELETE' } });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect((await site('GET', `/p/${slug}/`)).text).toContain('on its own origin');
  });
});

describe('HOSTED_ORIGIN', () => {
  let server: InProcessServer;
  let slug: string;
  let hostedHost: string;
  beforeAll(async () => {
    const port = await freePort();
    hostedHost = `usercontent.localhost:${port}`;
    server = await startInProcess({ ...(await migratedServiceEnv()), PORT: String(port), HOSTED_ORIGIN: `http://${hostedHost}` });
    slug = (await uploadSite({ 'index.html': '<p>behind a proxy</p>' }, {}, server.url)).json.project.slug;
  });
  afterAll(() => server?.stop());

  it('runs no second listener, and sends /p/ on the main host name to HOSTED_ORIGIN', async () => {
    expect(server.output()).not.toMatch(/hosted sites on http:\/\/127\.0\.0\.1/);
    const r = await call('GET', `/p/${slug}/index.html`, { base: server.url });
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe(`http://${hostedHost}/p/${slug}/index.html`);
  });

  it('serves /p/ on the hosted host name without the sandbox, and nothing else there', async () => {
    const r = await callAs(hostedHost, 'GET', `${server.url}/p/${slug}/`);
    expect(r.status).toBe(200);
    expect(r.text).toContain('behind a proxy');
    expect(r.headers.get('content-security-policy')).toBeNull();
    for (const path of ['/htmls', '/api/auth/check', '/']) {
      expect((await callAs(hostedHost, 'GET', `${server.url}${path}`)).status, path).toBe(404);
      expect(await json404(hostedHost, `${server.url}${path}`)).not.toContain(NO_PAGES);
    }
    // On the main host name the missing pages answer /htmls (what the hosted host name never reaches).
    expect(await json404(new URL(server.url).host, `${server.url}/htmls`)).toContain(NO_PAGES);
    // A root path asked for by a page of the project is that project's.
    const asset = await callAs(hostedHost, 'GET', `${server.url}/favicon.svg`, { headers: { Referer: `http://${hostedHost}/p/${slug}/` } });
    expect([asset.status, asset.headers.get('location')]).toEqual([302, `/p/${slug}/favicon.svg`]);
  });
});

describe('HOSTED_ORIGIN with {slug}: one origin per project', () => {
  let server: InProcessServer;
  let port: number;
  let a: string;
  let b: string;
  beforeAll(async () => {
    port = await freePort();
    server = await startInProcess({ ...(await migratedServiceEnv()), PORT: String(port), HOSTED_ORIGIN: `http://{slug}.localhost:${port}` });
    a = (await uploadSite({ 'index.html': '<p>site a</p>', 'docs/guide.html': '<p>guide of a</p>' }, {}, server.url)).json.project.slug;
    b = (await uploadSite({ 'index.html': '<p>site b</p>' }, {}, server.url)).json.project.slug;
  });
  afterAll(() => server?.stop());

  it("sends /p/<slug>/… on the main origin to that path at the root of the project's own host name", async () => {
    const r = await call('GET', `/p/${a}/index.html`, { base: server.url });
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe(`http://${a}.localhost:${port}/index.html`);
    expect((await call('GET', `/p/${a}`, { base: server.url })).headers.get('location')).toBe(`http://${a}.localhost:${port}/`);
  });

  it('serves a project at the root of its own host name; /p/<slug>/… there leads to the root', async () => {
    const host = `${a}.localhost:${port}`;
    const own = await callAs(host, 'GET', `${server.url}/`);
    expect(own.status).toBe(200);
    expect(own.text).toContain('site a');
    const deep = await callAs(host, 'GET', `${server.url}/docs/guide`);
    expect([deep.status, deep.text]).toEqual([200, expect.stringContaining('guide of a')]);
    const prefixed = await callAs(host, 'GET', `${server.url}/p/${a}/docs/guide?x=1`);
    expect([prefixed.status, prefixed.headers.get('location')]).toEqual([302, '/docs/guide?x=1']);
    expect((await callAs(host, 'GET', `${server.url}/p/${a}//evil.example`)).headers.get('location')).toBe('/evil.example');
    expect((await callAs(host, 'GET', `${server.url}/index.html`)).headers.get('location')).toBe('/');
    // The origin is the project's alone: another project's path, the console and the API are its 404s.
    for (const path of [`/p/${b}/`, '/api/files', '/htmls']) {
      expect((await callAs(host, 'GET', `${server.url}${path}`)).status, path).toBe(404);
      expect(await json404(host, `${server.url}${path}`)).not.toContain(NO_PAGES);
    }
    // The same URL on another project's origin is that project's file (the reply cache keeps them apart).
    expect((await callAs(`${b}.localhost:${port}`, 'GET', `${server.url}/`)).text).toContain('site b');
    expect((await callAs(host, 'GET', `${server.url}/`)).text).toContain('site a');
  });

  it("GET /p/<slug>/locale on the project's own origin is the project's path like any other (a folder named locale/); only the picker's POST is diverted", async () => {
    const slug = (await uploadSite({ 'index.html': '<p>home</p>', 'locale/index.html': '<p>our own locale page</p>' }, {}, server.url)).json.project.slug;
    const host = `${slug}.localhost:${port}`;
    const prefixed = await callAs(host, 'GET', `${server.url}/p/${slug}/locale`);
    expect([prefixed.status, prefixed.headers.get('location')]).toEqual([302, '/locale']);
    const folder = await callAs(host, 'GET', `${server.url}/locale`);
    expect([folder.status, folder.headers.get('location')]).toEqual([301, '/locale/']);
    const page = await callAs(host, 'GET', `${server.url}/locale/`);
    expect([page.status, page.text]).toEqual([200, expect.stringContaining('our own locale page')]);
    const chosen = await callAs(host, 'POST', `${server.url}/p/${slug}/locale`, {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ locale: 'de', next: '/locale/' }).toString(),
    });
    expect([chosen.status, chosen.headers.get('location')]).toEqual([303, '/locale/']);
    expect(chosen.cookies.find((c) => c.startsWith('htmls_locale='))).toMatch(/^htmls_locale=de; Path=\//);
  });

  it('unlocks a locked project at its root: the cookie covers the whole origin', async () => {
    const locked = (await uploadSite({ 'index.html': '<p>locked root</p>', 'app.js': 'ok()' }, { password: 'root-pass' }, server.url)).json.project.slug;
    const host = `${locked}.localhost:${port}`;
    const gate = await callAs(host, 'GET', `${server.url}/app.js`);
    expect(gate.status).toBe(401);
    expect(gate.text).toContain(`action="/p/${locked}/unlock"`);
    const unlock = await callAs(host, 'POST', `${server.url}/p/${locked}/unlock`, {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password: 'root-pass', next: '/app.js' }).toString(),
    });
    expect(unlock.status).toBe(303);
    expect(unlock.headers.get('location')).toBe('/app.js');
    expect(unlock.cookies[0]).toContain('Path=/;');
    const cookie = unlock.cookies[0].split(';')[0];
    expect((await callAs(host, 'GET', `${server.url}/app.js`, { headers: { Cookie: cookie } })).text).toBe('ok()');
    expect((await callAs(host, 'GET', `${server.url}/`, { headers: { Cookie: cookie } })).text).toContain('locked root');
  });
});
