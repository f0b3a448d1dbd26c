import { bootstrapAdminToken } from './auth/admin-credential';
import { startJanitor } from './janitor';
import { getRuntime, getServerSecret, type Runtime } from './runtime';

/**
 * Start-up work that needs the schema: the server secret and, on a first start without any
 * credential, an Admin Token printed once. Returns the runtime for the caller to serve.
 */
export async function boot(log: (line: string) => void = console.log): Promise<Runtime> {
  const rt = await getRuntime();
  if (!rt.migrated) {
    log('[htmls] database migrations are pending: /api answers 503 until `npm run db:migrate` has run');
    return rt;
  }
  await getServerSecret(rt);
  const token = await bootstrapAdminToken(rt);
  if (token) {
    log('');
    log('  ┌──────────────────────────────────────────────────────────────────────┐');
    log('  │ No Admin Token was configured, so one was generated. It is shown     │');
    log('  │ only this once (only its hash is stored). Sign in at /htmls with:    │');
    log(`  │   ${token.padEnd(67)}│`);
    log('  └──────────────────────────────────────────────────────────────────────┘');
    log('');
  }
  startJanitor(rt);
  return rt;
}
