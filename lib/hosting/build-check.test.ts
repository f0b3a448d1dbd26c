import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentTypeFor } from '../http/mime';
import { buildWarnings, newBuildFacts, noteBuildFile } from './build-check';

const BUILDS = path.join(import.meta.dirname, '../../e2e/fixtures/vite-builds');
const PORT = { mode: 'port', port: 3001 } as const;
const SHARED = { mode: 'origin', origin: 'https://u.example.com' } as const;
const PER_SITE = { mode: 'per-site', origin: 'https://{slug}.u.example.com' } as const;
const SANDBOX = { mode: 'sandbox' } as const;

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
    expect(codes(build('react-router'), PER_SITE)).toEqual([]);
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
