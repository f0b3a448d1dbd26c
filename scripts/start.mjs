// `npm start`: the compiled server (which applies migrations and serves). It never rebuilds: a
// build that is missing is made once (the first `npm install && npm start`, with the install's
// own dev dependencies); a stale one is refused with what to run. NODE_ENV is production unless set.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildState, ensureBuilt, MIGRATE_BUNDLE, SERVER_BUNDLE } from './build-hash.mjs';

// npm, when npm started us: read now, before the start, so that npm gone during the start (a
// SIGHUP right after the "listening" line) is seen as gone, not taken for the parent.
const startedBy = process.ppid;
process.env.NODE_ENV ??= 'production';
// Next's telemetry is off for our own start too (set NEXT_TELEMETRY_DISABLED=0 to allow it).
process.env.NEXT_TELEMETRY_DISABLED ??= '1';
const migrateOnly = process.argv.includes('--migrate');
if (!process.argv.includes('--no-build')) {
  const state = buildState();
  if (state === 'stale') {
    console.error('[htmls] the sources changed since the last build: run npm run build, then npm start');
    process.exit(1);
  }
  if (state === 'missing') {
    try {
      ensureBuilt();
    } catch (e) {
      console.error(`[htmls] ${e.message}: run npm run build (it needs the dev dependencies: npm install or npm ci without --omit=dev)`);
      process.exit(1);
    }
  }
}
const entry = await import(pathToFileURL(path.resolve(migrateOnly ? MIGRATE_BUNDLE : SERVER_BUNDLE)).href);
if (!migrateOnly) {
  await entry.main();
  stopWithNpm();
}

/**
 * The server is this very process (no child), and `npm start` runs it as `exec node …`, so npm
 * (which forwards SIGINT and SIGTERM to its script) signals the server itself, not a shell that
 * would die and leave it serving. A signal npm does not forward (SIGHUP, SIGKILL) ends npm
 * alone: this process then has another parent, and stops as it would on SIGTERM.
 */
function stopWithNpm() {
  if (!process.env.npm_lifecycle_event) return;
  const watch = setInterval(() => {
    if (process.ppid === startedBy) return;
    clearInterval(watch);
    console.error('[htmls] npm, which started this server, is gone: stopping');
    process.kill(process.pid, 'SIGTERM');
  }, 1000);
  watch.unref();
}
