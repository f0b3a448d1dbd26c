import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { frontHits, hostedUrl, useFileServer } from './support/file-server';
import { adminToken, uploadSite } from './support/hosting';
import { baseUrl, call, randomIp } from './support/http';

// A small per-address budget (burst 20), so the rate-limit case below outruns the refill even on a
// loaded machine (at the default 30/s, 400 requests had to be answered within 3.3 s; every other
// call here comes from an address of its own).
useFileServer({ REQUESTS_PER_SECOND_PER_IP: '2' });

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request to the main port with the Host a TLS proxy (Caddy) passes on for a custom domain. */
function onHost(host: string, method: string, path: string, opts: { body?: string; headers?: Record<string, string>; base?: string } = {}): Promise<Answer> {
  const url = new URL(opts.base ?? baseUrl());
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, agent: false, headers: { Host: host, 'X-Forwarded-For': randomIp(), ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const page = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;
const patch = async (slug: string, body: Record<string, unknown>) => call('PATCH', `/api/projects/${slug}`, { token: await adminToken(), body });
const DOMAIN = 'www.example-shop.test';

beforeAll(async () => {
  const r = await uploadSite(
    {
      'index.html': page('Shop home'),
      'about.html': page('About the shop'),
      'docs/index.html': page('Shop docs'),
      '404.html': page('Shop lost'),
      '_redirects': '/old /about 301\n/p2/* /docs/:splat 302\n',
      '_headers': '/*\n  X-Shop: yes\n',
    },
    { slug: 'shop' },
  );
  expect(r.status).toBe(201);
  expect((await uploadSite({ 'index.html': page('Other') }, { slug: 'other' })).status).toBe(201);
});

describe('PATCH /api/projects/:slug domains', () => {
  it('sets the domains (canonical: lower case, no trailing dot) and shows them on the project', async () => {
    const r = await patch('shop', { domains: ['WWW.Example-Shop.test.', 'shop.example.test'] });
    expect(r.status).toBe(200);
    expect(r.json.project.domains).toEqual(['shop.example.test', DOMAIN]);
    const list = await call('GET', '/api/files', { token: await adminToken() });
    expect(list.json.projects.find((p: { slug: string }) => p.slug === 'shop').domains).toEqual(['shop.example.test', DOMAIN]);
    expect(list.json.projects.find((p: { slug: string }) => p.slug === 'other').domains).toEqual([]);
  });

  it('refuses a domain another project has with 409 domain_taken, and changes nothing', async () => {
    const r = await patch('other', { domains: ['fine.example.test', DOMAIN], note: 'changed?' });
    expect([r.status, r.json.code]).toEqual([409, 'domain_taken']);
    const other = await call('GET', '/api/projects/other', { token: await adminToken() });
    expect(other.json.project).toMatchObject({ domains: [], note: '' });
  });

  it('refuses what is not a host name', async () => {
    for (const bad of ['localhost', 'a.localhost', '127.0.0.1', 'no-dot', 'http://x.example.test', 'x.example.test:8080', 'bad_label.example.test', '']) {
      const r = await patch('other', { domains: [bad] });
      expect([bad, r.status, r.json.code]).toEqual([bad, 400, 'invalid_request']);
    }
  });
});

describe('a project on its custom domain (Host on the main port)', () => {
  it('serves the index at /, clean URLs, and its own 404 page', async () => {
    const home = await onHost(DOMAIN, 'GET', '/');
    expect(home.status).toBe(200);
    expect(home.body).toContain('Shop home');
    expect(home.headers['x-shop']).toBe('yes');
    expect((await onHost(DOMAIN, 'GET', '/about')).body).toContain('About the shop');
    expect(await onHost(DOMAIN, 'GET', '/docs')).toMatchObject({ status: 301, headers: { location: '/docs/' } });
    expect((await onHost(DOMAIN, 'GET', '/docs/')).body).toContain('Shop docs');
    const miss = await onHost(DOMAIN, 'GET', '/no/such/page');
    expect(miss.status).toBe(404);
    expect(miss.body).toContain('Shop lost');
    // Another spelling of the same host, and the second domain.
    expect((await onHost('WWW.EXAMPLE-SHOP.TEST.:443', 'GET', '/about')).body).toContain('About the shop');
    expect((await onHost('shop.example.test', 'GET', '/')).body).toContain('Shop home');
  });

  it('applies its _redirects at the root, with no /p/<slug> prefix', async () => {
    expect(await onHost(DOMAIN, 'GET', '/old?x=1')).toMatchObject({ status: 301, headers: { location: '/about?x=1' } });
    expect(await onHost(DOMAIN, 'GET', '/p2/a')).toMatchObject({ status: 302, headers: { location: '/docs/a' } });
    // Its own /p/<slug> path leads to the root.
    expect(await onHost(DOMAIN, 'GET', '/p/shop/about')).toMatchObject({ status: 302, headers: { location: '/about' } });
  });

  it('serves nothing of the service itself on the domain: no console, no API', async () => {
    const api = await onHost(DOMAIN, 'GET', '/api/health');
    expect(api.status).toBe(404);
    expect(api.body).toContain('Shop lost');
    const main = await call('GET', '/api/health');
    expect(main.status).toBe(200);
  });

  it('asks for its password, and unlocks on the domain', async () => {
    expect((await patch('shop', { password: 'open-sesame' })).status).toBe(200);
    const locked = await onHost(DOMAIN, 'GET', '/about');
    expect(locked.status).toBe(401);
    expect(locked.body).not.toContain('About the shop');
    expect(locked.body).toContain('action="/p/shop/unlock"');
    const unlock = await onHost(DOMAIN, 'POST', '/p/shop/unlock', { body: JSON.stringify({ password: 'open-sesame' }), headers: { 'Content-Type': 'application/json' } });
    expect(unlock.status).toBe(200);
    const setCookie = [unlock.headers['set-cookie'] ?? []].flat()[0];
    expect(setCookie).toMatch(/Path=\//);
    const cookie = setCookie.split(';')[0];
    const open = await onHost(DOMAIN, 'GET', '/about', { headers: { Cookie: cookie } });
    expect(open.status).toBe(200);
    expect(open.body).toContain('About the shop');
    expect((await patch('shop', { password: null })).status).toBe(200);
  });

  it('is served on the hosted port too, its steady state by the hosted front, apart from the shared origin', async () => {
    const base = hostedUrl();
    const first = await onHost(DOMAIN, 'GET', '/about', { base });
    expect(first.body).toContain('About the shop');
    let answeredByFront = false;
    for (let i = 0; i < 20 && !answeredByFront; i++) {
      const hits = frontHits();
      const again = await onHost(DOMAIN, 'GET', '/about', { base });
      expect([again.status, again.body]).toEqual([200, first.body]);
      answeredByFront = frontHits() === hits + 1;
    }
    expect(answeredByFront).toBe(true);
    // The same URL on the shared hosted origin is not the project's: never its kept reply.
    expect((await onHost(new URL(base).host, 'GET', '/about', { base })).body).not.toContain('About the shop');
  });

  it('stops serving a domain once it is removed', async () => {
    expect((await patch('other', { domains: ['other.example.test'] })).status).toBe(200);
    expect((await onHost('other.example.test', 'GET', '/')).body).toContain('Other');
    expect((await patch('other', { domains: [] })).json.project.domains).toEqual([]);
    const after = await onHost('other.example.test', 'GET', '/');
    expect(after.body).not.toContain('<h1>Other</h1>');
  });
});

describe('GET /api/projects/:slug/domains', () => {
  it("gives each domain's DNS answer as the server sees it, and whether it points here", async () => {
    const r = await call('GET', '/api/projects/shop/domains', { token: await adminToken() });
    expect(r.status).toBe(200);
    expect(r.json.domains.map((d: { host: string }) => d.host)).toEqual(['shop.example.test', DOMAIN]);
    for (const d of r.json.domains) {
      // `.test` is reserved (RFC 6761): no resolver gives it an address, so it cannot point here.
      expect(d).toMatchObject({ points_here: false, addresses: [] });
      expect(typeof d.error).toBe('string');
    }
    expect((await call('GET', '/api/projects/no-such/domains', { token: await adminToken() })).status).toBe(404);
    expect((await call('GET', '/api/projects/shop/domains')).status).toBe(401);
  });
});

describe('GET /api/tls/ask', () => {
  it('answers 200 for a project domain and 404 otherwise, without a login', async () => {
    expect(await call('GET', `/api/tls/ask?domain=${DOMAIN}`)).toMatchObject({ status: 200, json: { ok: true } });
    expect((await call('GET', `/api/tls/ask?domain=${DOMAIN.toUpperCase()}`)).status).toBe(200);
    expect((await call('GET', '/api/tls/ask?domain=unknown.example.test')).status).toBe(404);
    expect((await call('GET', '/api/tls/ask?domain=')).status).toBe(404);
    expect((await call('GET', '/api/tls/ask')).status).toBe(404);
  });

  it('is rate-limited like every anonymous route', async () => {
    const ip = randomIp();
    // Past the per-address burst (10 s of REQUESTS_PER_SECOND_PER_IP) the answer is a 429.
    const answers = await Promise.all(Array.from({ length: 100 }, () => call('GET', '/api/tls/ask?domain=x.example.test', { ip })));
    expect(answers.some((a) => a.status === 429)).toBe(true);
    expect(answers.every((a) => a.status === 429 || a.status === 404)).toBe(true);
  });
});
