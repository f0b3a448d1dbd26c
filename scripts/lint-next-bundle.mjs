/**
 * `npm run lint:next-bundle` (after a build): Next's server output holds no module of the
 * server's own (lib/, db/) beyond the pure ones client code shares (lib/http/next-link.ts is the
 * bridge). Then every cache, queue, pool and counter of lib/ and db/ exists once per process:
 * Next's pages and route handlers reach them through the surface server.ts installs
 * (lib/http/next-surface.ts), never a second copy bundled into Next's chunks.
 * It reads the source maps Next writes beside its server chunks.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Pure code (no state, no server resource): what the browser bundles too. */
const PURE = [
  'lib/client/',
  'lib/contract/',
  'lib/paths/',
  'lib/format-bytes.ts',
  'lib/share-title.ts',
  'lib/hosting/site-url.ts',
  'lib/hosting/slug-grammar.ts',
  'lib/pwa/manifest.ts',
  'lib/http/next-link.ts',
  'lib/i18n/locales.ts',
];

const root = path.resolve(import.meta.dirname, '..');
const dir = path.join(root, '.next', 'server');
const sources = new Set();
const walk = (d) => {
  for (const n of readdirSync(d)) {
    const p = path.join(d, n);
    if (statSync(p).isDirectory()) walk(p);
    else if (n.endsWith('.js.map')) {
      const map = JSON.parse(readFileSync(p, 'utf8'));
      const all = [...(map.sources ?? []), ...(map.sections ?? []).flatMap((s) => s.map?.sources ?? [])];
      for (const s of all) sources.add(path.relative(root, path.resolve(path.dirname(p), s.replace(/^.*\[project\]\//, root + '/'))));
    }
  }
};
walk(dir);
const ours = [...sources].filter((s) => /^(lib|db)\//.test(s));
const bad = ours.filter((s) => !PURE.some((p) => s.startsWith(p)));
if (ours.length === 0) {
  console.error('lint:next-bundle: no source of ours found in .next/server: is the build there, with source maps?');
  process.exit(1);
}
if (bad.length) {
  console.error(`Next's server bundle holds a second copy of server modules (reach them through lib/http/next-link.ts):\n${bad.map((b) => `  ${b}`).join('\n')}`);
  process.exit(1);
}
console.log(`next bundle: ${ours.length} modules of ours, all pure (client-shared); lib/ and db/ load once, in server.ts`);
