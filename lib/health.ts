import 'server-only';
import { sql } from 'drizzle-orm';
import { migrationsApplied } from '@/db/migrate';
import type { Runtime } from './runtime';

export async function checkHealth(rt: Runtime) {
  const database = await rt.db
    .execute(sql`select 1`)
    .then(() => 'ok' as const)
    .catch(() => 'unavailable' as const);
  const storage = await rt.storage
    .list('health-check/')
    .then(() => 'ok' as const)
    .catch(() => 'unavailable' as const);
  const applied = database === 'ok' && (rt.migrated || (await migrationsApplied(rt.dbh).catch(() => false)));
  if (applied) rt.migrated = true;
  const migrations = applied ? ('applied' as const) : ('pending' as const);
  return { ok: database === 'ok' && storage === 'ok' && applied, database, storage, migrations };
}
