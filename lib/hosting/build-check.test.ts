import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentTypeFor } from '../mime';
import { buildWarnings, newBuildFacts, noteBuildFile } from './build-check';

const BUILDS = path.join(import.meta.dirname, '../../e2e/fixtures/vite-builds');
/** The default hosted port, its console reached by a host name other than localhost: one origin shared by every site. */
const PORT = { hosted: { mode: 'port', port: 3001 }, template: 'http://box.lan:3001', port: 3000 } as const;
/** The same, reached as localhost: every site at the root of `<slug>.localhost:3001`. */
const LOCAL = { hosted: { mode: 'port', port: 3001 }, template: 'http://{slug}.localhost:3001', port: 3000 } as const;
const SHARED = { hosted: { mode: 'origin', origin: 'https://u.example.com' }, template: 'https://u.example.com', port: 3000 } as const;
const PER_SITE = { hosted: { mode: 'per-site', origin: 'https://{slug}.u.example.com' }, template: 'https://{slug}.u.example.com', port: 3000 } as const;
const SANDBOX = { hosted: { mode: 'sandbox' }, template: null, port: 3000 } as const;

function factsOf(files: Record<string, string | Buffer>) {
  const facts = newBuildFacts();
  for (const [p, body] of Object.entries(files)) noteBuildFile(facts, p, contentTypeFor(p), Buffer.from(body));
  return facts;
}

function build(name: string, dir = path.join(BUILDS, name), rel = ''): Record<string, Buffer> {
  return Object.assign(
    {},
    ...readdirSync(dir).map((n) => (statSync(path.join(dir, n)).isDirectory() ? build(name, path.join(dir, n), `${rel}${n}/`) : { [`${rel}${n}`]: readFileSync(path.join(dir, n)) })),
  );
}

const codes = (files: Record<string, string | Buffer>, hosted: Parameters<typeof buildWarnings>[1]) => buildWarnings(factsOf(files), hosted, 'demo').map((w) => w.code);

describe('upload warnings: only where the build will still break', () => {
  it('untouched vanilla and react-ts builds work on every hosted origin but the sandbox opt-out', () => {
    for (const name of ['vanilla', 'react-ts']) {
      expect(codes(build(name), PORT), name).toEqual([]);
      expect(codes(build(name), SHARED), name).toEqual([]);
      expect(codes(build(name), PER_SITE), name).toEqual([]);
      const [sandbox] = buildWarnings(factsOf(build(name)), SANDBOX, 'demo');
      expect(sandbox.code).toBe('root_paths');
      expect(sandbox.message).toMatch(/index\.html loads \/(favicon\.svg|assets\/)/);
    }
  });

  it('a client-side router built for the root breaks under /p/<slug>/ (not on an origin of its own)', () => {
    const [w] = buildWarnings(factsOf(build('react-router')), PORT, 'demo');
    expect(w.code).toBe('root_router');
    expect(w.message).toContain("base '/p/demo/'");
    expect(w.message).toContain('basename');
    // …and exactly what to change for an origin per site, on this setup.
    expect(w.message).toContain('HOSTED_ORIGIN=https://{slug}.sites.example.com');
    expect(w.message).toContain('http://localhost:3000/htmls');
    // …and its parts, for a console that words it in its reader's language (lib/client/upload-warnings.ts).
    expect(w.own_origin).toEqual({ hosted_origin: 'HOSTED_ORIGIN=https://{slug}.sites.example.com', wildcard_dns: '*.sites.example.com', local_console: 'http://localhost:3000/htmls', local_site: 'http://demo.localhost:3001' });
    expect(w.base).toBe('/p/demo/');
    expect(w.message).toContain(w.file);
    expect(w.message).toContain(`${w.root_ref.file} loads ${w.root_ref.path}`);
    const shared = buildWarnings(factsOf(build('react-router')), SHARED, 'demo')[0];
    expect(shared.message).toContain('HOSTED_ORIGIN=https://{slug}.u.example.com');
    expect(shared.own_origin).toEqual({ hosted_origin: 'HOSTED_ORIGIN=https://{slug}.u.example.com', wildcard_dns: '*.u.example.com', local_console: null, local_site: null });
    expect(codes(build('react-router'), PER_SITE)).toEqual([]);
    expect(codes(build('react-router'), LOCAL)).toEqual([]);
    // Built for its place (relative or /p/<slug>/ base), the same router is fine.
    const relative = { 'index.html': '<script type="module" src="./assets/a.js"></script>', 'assets/a.js': 'history.pushState(null, "", "/x")' };
    expect(codes(relative, PORT)).toEqual([]);
    expect(codes({ ...relative, 'index.html': '<script src="/p/demo/assets/a.js"></script>' }, PORT)).toEqual([]);
  });

  it('a page that turns the Referer off, or a service worker at a root path, breaks on the shared origin', () => {
    const page = '<meta name="referrer" content="no-referrer"><script type="module" src="/assets/a.js"></script>';
    expect(codes({ 'index.html': page }, PORT)).toEqual(['referrer_off']);
    expect(codes({ 'index.html': page.replace('no-referrer', 'same-origin') }, PORT)).toEqual([]);
    expect(codes({ 'index.html': '<link rel=icon href=/favicon.svg>', 'registerSW.js': "navigator.serviceWorker.register('/sw.js', { scope: '/' })" }, SHARED)).toEqual(['root_service_worker']);
    expect(codes({ 'index.html': page }, PER_SITE)).toEqual([]);
  });
});
