// `npm start`: build when the sources changed since the last build, then run the compiled
// server (which applies migrations and serves). NODE_ENV is production unless set.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, MIGRATE_BUNDLE, SERVER_BUNDLE } from './build-hash.mjs';

process.env.NODE_ENV ??= 'production';
// Next's telemetry is off for our own start too (set NEXT_TELEMETRY_DISABLED=0 to allow it).
process.env.NEXT_TELEMETRY_DISABLED ??= '1';
const migrateOnly = process.argv.includes('--migrate');
if (!process.argv.includes('--no-build')) {
  try {
    ensureBuilt();
  } catch {
    process.exit(1);
  }
}
await import(pathToFileURL(path.resolve(migrateOnly ? MIGRATE_BUNDLE : SERVER_BUNDLE)).href);
