import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedServiceEnv, useFileServer } from './support/file-server';
import { uploadSite, site } from './support/hosting';
import { adminSession, baseUrl, call, callAs, hostedUrl } from './support/http';
import { freePort, ROOT, startServer, tempDir, TEST_ADMIN_TOKEN, type RunningServer } from './support/server';

useFileServer();

const SANDBOX = 'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads';

describe('the hosted origin by default (a second listener)', () => {
  let slug: string;
  beforeAll(async () => {
    slug = (await uploadSite({ 'index.html': '<p>on its own origin</p>' })).json.project.slug;
  });

  it('GET /p/:slug on the main origin — 302 to the same path on the hosted port, same host name', async () => {
    const r = await call('GET', `/p/${slug}/index.html?x=1`);
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe(`${hostedUrl()}/p/${slug}/index.html?x=1`);
    const named = await callAs(`localhost:${new URL(baseUrl()).port}`, 'GET', `${baseUrl()}/p/${slug}`);
    expect(named.headers.get('location')).toBe(`http://localhost:${new URL(hostedUrl()).port}/p/${slug}`);
  });

  it('POST /p/:slug/unlock on the main origin — 307, so the form post stays a post', async () => {
    const r = await call('POST', `/p/${slug}/unlock`, { body: { password: 'x' } });
    expect(r.status).toBe(307);
    expect(r.headers.get('location')).toBe(`${hostedUrl()}/p/${slug}/unlock`);
  });

  it('GET /p/:slug/* on the hosted origin — the site, without a sandbox', async () => {
    const r = await site('GET', `/p/${slug}/index.html`);
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
    expect((await site('GET', `/p/${slug}/index.html`)).status).toBe(200);
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
    expect((await site('GET', `/p/${slug}/index.html`)).text).toContain('on its own origin');
  });
});

describe('HOSTED_ORIGIN', () => {
  let server: RunningServer;
  let slug: string;
  let hostedHost: string;
  beforeAll(async () => {
    const port = await freePort();
    hostedHost = `usercontent.localhost:${port}`;
    server = await startServer({ ...(await migratedServiceEnv()), PORT: String(port), HOSTED_ORIGIN: `http://${hostedHost}` });
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
    const r = await callAs(hostedHost, 'GET', `${server.url}/p/${slug}/index.html`);
    expect(r.status).toBe(200);
    expect(r.text).toContain('behind a proxy');
    expect(r.headers.get('content-security-policy')).toBeNull();
    for (const path of ['/htmls', '/api/auth/check', '/']) {
      expect((await callAs(hostedHost, 'GET', `${server.url}${path}`)).status, path).toBe(404);
    }
  });
});

describe('HOSTED_ORIGIN with {slug}: one origin per project', () => {
  let server: RunningServer;
  let port: number;
  let a: string;
  let b: string;
  beforeAll(async () => {
    port = await freePort();
    server = await startServer({ ...(await migratedServiceEnv()), PORT: String(port), HOSTED_ORIGIN: `http://{slug}.localhost:${port}` });
    a = (await uploadSite({ 'index.html': '<p>site a</p>' }, {}, server.url)).json.project.slug;
    b = (await uploadSite({ 'index.html': '<p>site b</p>' }, {}, server.url)).json.project.slug;
  });
  afterAll(() => server?.stop());

  it("sends /p/<slug> on the main origin to that project's own host name", async () => {
    const r = await call('GET', `/p/${a}/index.html`, { base: server.url });
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe(`http://${a}.localhost:${port}/p/${a}/index.html`);
  });

  it('serves a project only on its own host name; another project there is sent to its own', async () => {
    const own = await callAs(`${a}.localhost:${port}`, 'GET', `${server.url}/p/${a}/index.html`);
    expect(own.status).toBe(200);
    expect(own.text).toContain('site a');
    const other = await callAs(`${a}.localhost:${port}`, 'GET', `${server.url}/p/${b}/index.html`);
    expect(other.status).toBe(302);
    expect(other.headers.get('location')).toBe(`http://${b}.localhost:${port}/p/${b}/index.html`);
    expect((await callAs(`${a}.localhost:${port}`, 'GET', `${server.url}/api/files`)).status).toBe(404);
  });
});

describe('HOSTED_PORT=0: the sandbox opt-out', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ ...(await migratedServiceEnv()), HOSTED_PORT: '0' });
  });
  afterAll(() => server?.stop());

  it('serves /p/ on the main origin under the sandbox CSP, and warns at boot', async () => {
    const slug = (await uploadSite({ 'index.html': '<p>sandboxed</p>' }, {}, server.url)).json.project.slug;
    const r = await call('GET', `/p/${slug}/index.html`, { base: server.url });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-security-policy')).toBe(SANDBOX);
    expect(server.output()).toMatch(/WARNING: HOSTED_PORT=0/);
  });

  it('GET /htmls — shows the warning (about the setup, not an account: with the login form too)', async () => {
    const page = await call('GET', '/htmls', { base: server.url });
    expect(page.text).toContain('sandbox');
    expect(page.text).toContain('HOSTED_ORIGIN');
  });
});

/** Runs the server as npm start does, with this environment; it must exit on its own with a configuration error. */
function bootError(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['scripts/start.mjs', '--no-build'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', DATA_DIR: tempDir(), ADMIN_TOKEN: TEST_ADMIN_TOKEN, ...env },
    });
    let output = '';
    proc.stdout.on('data', (d) => (output += d));
    proc.stderr.on('data', (d) => (output += d));
    proc.on('exit', (code) => resolve({ code, output }));
  });
}

describe('boot behind a TLS proxy without HOSTED_ORIGIN', () => {
  it.each<Record<string, string>>([{ PUBLIC_URL: 'https://files.example.com' }, { TRUST_PROXY: 'true' }])('refuses to start with %j, naming HOSTED_ORIGIN and the proxy line', async (extra) => {
    const r = await bootError({ PORT: String(await freePort()), ...extra });
    expect(r.code).toBe(1);
    expect(r.output).toContain('HOSTED_ORIGIN');
    expect(r.output).toContain('reverse_proxy');
    expect(r.output).toContain('HOSTED_PORT=0');
  });
});
