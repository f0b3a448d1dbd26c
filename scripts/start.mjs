// `npm start`: build when the sources changed since the last build, then run server.ts
// (which applies migrations and serves). NODE_ENV is production unless set.
import { ensureBuilt } from './build-hash.mjs';

process.env.NODE_ENV ??= 'production';
if (!process.argv.includes('--no-build')) {
  try {
    ensureBuilt();
  } catch {
    process.exit(1);
  }
}

const { register } = await import('tsx/esm/api');
register();
await import('./hooks.mjs');
await import('../server.ts');
