// The release build (`npm run build`) and the digest of everything it reads, so `npm start` can
// tell a build that is current from one that is missing or stale. Needs the dev dependencies
// (next build's TypeScript, esbuild, the icon renderer); serving a built tree does not.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const VERSION = JSON.parse(readFileSync('package.json', 'utf8')).version;
const ICONS_DIR = path.join('public', 'icons');
const INPUTS = ['app', 'lib', 'db', 'cli', 'public', 'assets', 'messages', 'i18n', 'scripts/icons.mjs', 'proxy.ts', 'next.config.mjs', 'postcss.config.mjs', 'tsconfig.json', 'tsconfig.build.json', 'server.ts', 'scripts/migrate.ts', 'scripts/build-hash.mjs', 'scripts/release.mjs', 'scripts/start.mjs', 'package-lock.json'];
export const STAMP = path.join('.next', 'htmls-build-hash');
export const SERVER_BUNDLE = path.join('.next', 'htmls', 'server.mjs');
export const MIGRATE_BUNDLE = path.join('.next', 'htmls', 'migrate.mjs');
/** The release artifact (scripts/release.mjs): a folder that serves with only Node, and its tarball beside it. */
export const RELEASE_DIR = path.join('dist', 'htmls');
/** Written at the root of that folder: there, the build is what it is (there are no sources). */
export const RELEASE_MARK = 'release.json';
/** The CLI as plain JavaScript, in its own package (packages/cli: `npm pack` ships it). */
export const CLI_BUNDLE = path.join('packages', 'cli', 'dist', 'htmls.mjs');

function* files(p) {
  let st;
  try {
    st = statSync(p);
  } catch {
    return;
  }
  if (st.isDirectory()) {
    for (const name of readdirSync(p).sort()) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      // Generated from assets/ (hashed there), so not an input of its own.
      if (path.join(p, name).endsWith(ICONS_DIR)) continue;
      yield* files(path.join(p, name));
    }
  } else if (!/\.test\.tsx?$/.test(p)) {
    yield p;
  }
}

export function buildHash(root = process.cwd()) {
  const h = createHash('sha256');
  for (const input of INPUTS) {
    for (const f of files(path.join(root, input))) {
      h.update(path.relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
    }
  }
  return h.digest('hex');
}

/** 'current', 'stale' (built from other sources) or 'missing'; a release folder is always current. */
export function buildState() {
  if (existsSync(RELEASE_MARK)) return 'current';
  const complete = [path.join('.next', 'BUILD_ID'), SERVER_BUNDLE, MIGRATE_BUNDLE, CLI_BUNDLE, path.join(ICONS_DIR, 'favicon.ico'), path.join(RELEASE_DIR, RELEASE_MARK), STAMP].every((f) => existsSync(f));
  if (!complete) return 'missing';
  return readFileSync(STAMP, 'utf8') === buildHash() ? 'current' : 'stale';
}

/** Builds unless the last build was made from these very sources; true when it built. */
export function ensureBuilt({ quiet = false, force = false } = {}) {
  const state = buildState();
  if (!force && state === 'current') return false;
  build({ quiet, message: buildMessage({ built: state !== 'missing', force }) });
  return true;
}

/** Why a build runs, for the person who typed `npm start`: a fresh clone has no "last build". */
export function buildMessage({ built, force }) {
  if (force) return 'building…';
  return built ? 'rebuilding (sources changed since the last build)…' : 'building the app for its first start (a minute or two; later starts reuse it)…';
}

/**
 * The build's environment. Next's telemetry stays off unless the operator asked for it: our
 * own build should not print its banner or phone home (NEXT_TELEMETRY_DISABLED=0 turns it on).
 */
export function buildEnv(env) {
  return { ...env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: env.NEXT_TELEMETRY_DISABLED ?? '1' };
}

/**
 * Everything production runs: the icons, next build, the server, migrate script and CLI as
 * plain JavaScript, and the release artifact made of them (scripts/release.mjs).
 */
function build({ quiet, message }) {
  if (!quiet) console.log(`[htmls] ${message}`);
  run(['scripts/icons.mjs'], 'rendering the icons failed', quiet);
  run(['node_modules/next/dist/bin/next', 'build'], 'next build failed', quiet);
  bundle();
  run(['scripts/release.mjs'], 'assembling the release artifact failed', quiet);
  // Hash again: next build may itself touch an input (it adds paths to tsconfig.json).
  writeFileSync(STAMP, buildHash());
}

function run(args, failure, quiet) {
  const r = spawnSync(process.execPath, args, { stdio: quiet ? 'pipe' : 'inherit', env: buildEnv(process.env) });
  if (r.status !== 0) {
    if (quiet) process.stderr.write(`${r.stdout}\n${r.stderr}`);
    throw new Error(failure);
  }
}

/**
 * server.ts and the migrate script compiled to plain JavaScript, so production runs no
 * TypeScript loader, and `server-only` is a no-op outside Next's react-server build (this is
 * server code). Pure-JavaScript packages are compiled in: loaded from node_modules, Node's ESM
 * loader reads a package's package.json for every file it resolves in it, and drizzle-orm's is
 * 179 KB — importing the server cost 1.2 s of CPU, 0.7 s of it there; compiled in, 0.4 s (every
 * start, and every test file's server). Left in node_modules (SERVER_EXTERNAL): Next and the
 * React it renders with (one copy: Next's own), the packages with native or WebAssembly parts,
 * and next-intl (Next's pages use it too). The CLI is one file with its pure-JavaScript packages
 * inside; only the OS keyring binding stays out.
 */
const SERVER_EXTERNAL = ['next', 'react', 'react-dom', 'next-intl', 'use-intl', '@electric-sql/pglite', 'sharp', '@resvg/resvg-js'];

function bundle() {
  const script = `
    const esbuild = require('esbuild');
    const packageOf = (p) => p.split('/').slice(0, p.startsWith('@') ? 2 : 1).join('/');
    /** Leaves the named packages (and Node's own modules) to be loaded at run time. */
    const externalPackages = (names) => ({
      name: 'external-packages',
      setup(build) {
        build.onResolve({ filter: /^[^./]/ }, (args) => (names.includes(packageOf(args.path)) ? { path: args.path, external: true } : undefined));
      },
    });
    // Node 24 runs it (npm's pinned runtime); the target is the oldest Node still tested (CI's
    // Node 20 pass), so the same build serves on both.
    const common = {
      bundle: true, platform: 'node', format: 'esm', target: 'node20', tsconfig: 'tsconfig.json', logLevel: 'warning',
      // Compiled-in CommonJS packages may require() Node's own modules.
      banner: { js: "import { createRequire as __htmlsRequire } from 'node:module'; const require = __htmlsRequire(import.meta.url);" },
    };
    // Plugins need the asynchronous API.
    const server = esbuild.build({
      ...common,
      entryPoints: { server: 'server.ts', migrate: 'scripts/migrate.ts', 'hosted-front': 'lib/http/hosted-front.ts' },
      outdir: ${JSON.stringify(path.dirname(SERVER_BUNDLE))},
      outExtension: { '.js': '.mjs' },
      plugins: [externalPackages(${JSON.stringify(SERVER_EXTERNAL)})],
      // A dynamic import stays one (a chunk of its own): the S3 store and its SDK load only with
      // STORAGE=s3, so neither a server on the file store nor its hosted front pays for them.
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      alias: { 'server-only': './scripts/server-only-noop.mjs' },
      sourcemap: 'linked',
      metafile: true,
    });
    server
      .then((result) => {
        // A CommonJS package reached through import() became a chunk whose only export is its
        // default, so the importer's named imports came out undefined (@aws-sdk/lib-storage's
        // Upload, a 500 on every S3 upload of unknown length): such a package is imported
        // statically (its importer is a chunk of its own where it must load late).
        for (const out of Object.keys(result.metafile.outputs)) {
          if (out.endsWith('.mjs') && /^export default require_\\w+\\(\\);$/m.test(require('node:fs').readFileSync(out, 'utf8'))) {
            throw new Error(out + ' is a CommonJS package imported with import(): import it statically');
          }
        }
      })
      .catch((e) => {
        console.error(e);
        process.exit(1);
      });
    esbuild.buildSync({
      ...common,
      entryPoints: ['cli/main.ts'],
      outfile: ${JSON.stringify(CLI_BUNDLE)},
      external: ['@napi-rs/keyring'],
      define: { __HTMLS_VERSION__: JSON.stringify(${JSON.stringify(VERSION)}) },
    });`;
  const r = spawnSync(process.execPath, ['-e', script], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('compiling server.ts and the CLI failed');
}
