// The release artifact, the last step of `npm run build` (scripts/build-hash.mjs): one folder,
// dist/htmls/, and the same as a tarball, dist/htmls-<version>.tgz, that serve with only Node —
// no npm install, no build, no TypeScript, no dev dependency. It is Next's standalone output
// (next build with `output: 'standalone'`: the server files and the part of node_modules they
// use, traced) plus ours: the compiled server, hosted front and migrate script (.next/htmls/)
// and the packages they load, traced the same way (@vercel/nft), the migrations, public/ with the
// rendered icons, Next's static files, and scripts/start.mjs as the entry (`npm start` or
// `node scripts/start.mjs` in the folder). Usage: node scripts/release.mjs
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { nodeFileTrace } from '@vercel/nft';
import { RELEASE_DIR, RELEASE_MARK } from './build-hash.mjs';

const ROOT = process.cwd();
const STANDALONE = path.join('.next', 'standalone');
const OURS = path.join('.next', 'htmls');
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const out = RELEASE_DIR;

if (!existsSync(STANDALONE)) throw new Error(`${STANDALONE} is missing: next build did not write its standalone output`);
rmSync(out, { recursive: true, force: true });
mkdirSync(path.dirname(out), { recursive: true });
// Next's traced server: .next/ (server code, manifests), node_modules, its own package.json.
cpSync(STANDALONE, out, { recursive: true, verbatimSymlinks: true });
// Next's own entry (plain `next start`) is not ours: server.ts is the one supported entry point.
rmSync(path.join(out, 'server.js'), { force: true });
for (const [from, to] of [
  [path.join('.next', 'static'), path.join('.next', 'static')],
  ['public', 'public'],
  [OURS, OURS],
  [path.join('db', 'migrations'), path.join('db', 'migrations')],
  [path.join('scripts', 'start.mjs'), path.join('scripts', 'start.mjs')],
  [path.join('scripts', 'build-hash.mjs'), path.join('scripts', 'build-hash.mjs')],
]) {
  cpSync(from, path.join(out, to), { recursive: true });
}

// The packages our compiled files import (Next's trace covers only what its own server loads).
const entries = readdirSync(OURS, { recursive: true })
  .map((f) => path.join(OURS, f))
  .filter((f) => f.endsWith('.mjs') && statSync(f).isFile());
// Next and its parts are in Next's trace already (and tracing next/dist again takes minutes).
// React is traced again for ours: use-intl (lib/i18n/messages.ts) imports it by name from our
// server, and Node finds a CommonJS module's names only when both branches of react/index.js
// (production and development) are there; Next's trace keeps the production one alone.
// Only packages are copied from this trace: a path it cannot pin down (the stores' directories)
// must not make it read the project's other files (.git's objects, parsed as scripts, warned of
// by the thousand). sharp is ours too (link-preview posters): Next's trace has it only when its
// own image optimiser would load it.
const { fileList, warnings } = await nodeFileTrace(entries, {
  base: ROOT,
  processCwd: ROOT,
  ignore: (f) => !/^(node_modules|\.next)\//.test(f) || /^node_modules\/(next|react-dom|scheduler|styled-jsx|@next|@swc)\//.test(f),
});
// (A native library the trace met as an asset is not a script: no warning for it.)
for (const w of warnings) if (!/Failed to resolve dependency|Failed to parse \S+\.so[.\d]* /.test(String(w))) console.warn(`[htmls] trace: ${w.message ?? w}`);
let added = 0;
for (const f of fileList) {
  if (!f.startsWith(`node_modules${path.sep}`)) continue;
  const to = path.join(out, f);
  if (existsSync(to)) continue;
  const st = statSync(f);
  if (!st.isFile()) continue;
  mkdirSync(path.dirname(to), { recursive: true });
  cpSync(f, to);
  added++;
}

// A package.json of its own: the scripts that serve, no dependency to install.
writeFileSync(
  path.join(out, 'package.json'),
  `${JSON.stringify(
    {
      name: pkg.name,
      version: pkg.version,
      private: true,
      type: 'module',
      engines: pkg.engines,
      scripts: { start: pkg.scripts.start, 'db:migrate': pkg.scripts['db:migrate'] },
    },
    null,
    2,
  )}\n`,
);
// What this folder is: scripts/start.mjs serves it as it is (there are no sources to build from).
writeFileSync(path.join(out, RELEASE_MARK), `${JSON.stringify({ version: pkg.version, built_at: new Date().toISOString() }, null, 2)}\n`);

const tarball = path.join(path.dirname(out), `${path.basename(out)}-${pkg.version}.tgz`);
rmSync(tarball, { force: true });
const tar = spawnSync('tar', ['-czf', tarball, '-C', path.dirname(out), path.basename(out)], { stdio: 'inherit' });
if (tar.status !== 0) throw new Error('tar failed');
const size = (p) => {
  const st = statSync(p);
  return st.isDirectory() ? readdirSync(p).reduce((n, f) => n + size(path.join(p, f)), 0) : st.size;
};
const mb = (n) => `${(n / 1024 / 1024).toFixed(0)} MB`;
console.log(`[htmls] release: ${out}/ (${mb(size(out))}, node_modules ${mb(size(path.join(out, 'node_modules')))}; ${added} files traced from our server) and ${tarball} (${mb(statSync(tarball).size)})`);
