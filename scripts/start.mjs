// `npm start`: build when the sources changed since the last build, then run the compiled
// server (which applies migrations and serves). NODE_ENV is production unless set.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, MIGRATE_BUNDLE, SERVER_BUNDLE } from './build-hash.mjs';

process.env.NODE_ENV ??= 'production';
const migrateOnly = process.argv.includes('--migrate');
if (!process.argv.includes('--no-build')) {
  try {
    ensureBuilt();
  } catch {
    process.exit(1);
  }
}
const entry = await import(pathToFileURL(path.resolve(migrateOnly ? MIGRATE_BUNDLE : SERVER_BUNDLE)).href);
if (!migrateOnly) await entry.main();
