import 'server-only';
import { pingDatabase } from '@/db/queries/health';
import { migrationsApplied } from '@/db/migrate';
import { janitorStats } from './janitor-stats';
import type { Runtime } from './runtime';

export async function checkHealth(rt: Runtime) {
  const database = (await pingDatabase(rt.db)) ? ('ok' as const) : ('unavailable' as const);
  const storage = await rt.storage
    .list('health-check/')
    .then(() => 'ok' as const)
    .catch(() => 'unavailable' as const);
  const applied = database === 'ok' && (rt.migrated || (await migrationsApplied(rt.dbh).catch(() => false)));
  if (applied) rt.migrated = true;
  const migrations = applied ? ('applied' as const) : ('pending' as const);
  // This instance's janitor runs (the lease gives one instance each interval).
  return { ok: database === 'ok' && storage === 'ok' && applied, database, storage, migrations, janitor: janitorStats(rt) };
}
