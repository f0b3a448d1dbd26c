// A digest of everything `next build` reads, so `npm start` rebuilds only when it changed.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateIcons, ICONS_DIR } from './icons.mjs';

const INPUTS = ['app', 'lib', 'db', 'public', 'assets', 'scripts/icons.mjs', 'proxy.ts', 'next.config.mjs', 'postcss.config.mjs', 'tsconfig.json', 'tsconfig.build.json', 'server.ts', 'scripts/migrate.ts', 'scripts/build-hash.mjs', 'package-lock.json'];
export const STAMP = path.join('.next', 'htmls-build-hash');

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

/** Runs `next build` unless the last build was made from these very sources. */
export function ensureBuilt({ quiet = false, force = false } = {}) {
  const want = buildHash();
  const have = existsSync(STAMP) ? readFileSync(STAMP, 'utf8') : '';
  const iconsMissing = !existsSync(path.join(ICONS_DIR, 'favicon.ico'));
  if (!force && want === have && existsSync(path.join('.next', 'BUILD_ID')) && existsSync(SERVER_BUNDLE)) {
    if (iconsMissing) generateIcons();
    return false;
  }
  if (!quiet) console.log(`[htmls] ${buildMessage({ built: have !== '' || existsSync(path.join('.next', 'BUILD_ID')), force })}`);
  generateIcons();
  const r = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], {
    stdio: quiet ? 'pipe' : 'inherit',
    env: buildEnv(process.env),
  });
  if (r.status !== 0) {
    if (quiet) process.stderr.write(`${r.stdout}\n${r.stderr}`);
    throw new Error('next build failed');
  }
  buildServer();
  // Hash again: next build may itself touch an input (it adds paths to tsconfig.json).
  writeFileSync(STAMP, buildHash());
  return true;
}

/** Why a build runs, for the person who typed `npm start`: a fresh clone has no "last build". */
export function buildMessage({ built, force }) {
  if (force) return 'building…';
  return built ? 'rebuilding (sources changed since the last build)…' : 'building the app for its first start (a minute or two; later starts reuse it)…';
}

/**
 * `next build`'s environment. Next's telemetry stays off unless the operator asked for it: our
 * own build should not print its banner or phone home (NEXT_TELEMETRY_DISABLED=0 turns it on).
 */
export function buildEnv(env) {
  return { ...env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: env.NEXT_TELEMETRY_DISABLED ?? '1' };
}

export const SERVER_BUNDLE = path.join('.next', 'htmls', 'server.mjs');
export const MIGRATE_BUNDLE = path.join('.next', 'htmls', 'migrate.mjs');

/**
 * server.ts and the migrate script compiled to plain JavaScript, so production runs no
 * TypeScript loader. Packages stay external (the same node_modules Next's bundle uses);
 * `server-only` is a no-op outside Next's react-server build, and this is server code.
 */
function buildServer() {
  const script = `
    const esbuild = require('esbuild');
    esbuild.buildSync({
      entryPoints: { server: 'server.ts', migrate: 'scripts/migrate.ts' },
      outdir: ${JSON.stringify(path.dirname(SERVER_BUNDLE))},
      outExtension: { '.js': '.mjs' },
      bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external',
      alias: { 'server-only': './scripts/server-only-noop.mjs' },
      tsconfig: 'tsconfig.json', sourcemap: 'linked', logLevel: 'warning',
    });`;
  const r = spawnSync(process.execPath, ['-e', script], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('compiling server.ts failed');
}
