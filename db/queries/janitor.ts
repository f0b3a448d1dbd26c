import 'server-only';
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { settings } from '../schema';

const LEASE_KEY = 'janitor_lease_until';

/**
 * One janitor per interval across all instances: whoever moves the lease forward first runs,
 * the others see it taken. Returns true for the winner.
 */
export async function takeJanitorLease(db: Db, seconds: number): Promise<boolean> {
  const until = sql`to_char((now() + make_interval(secs => ${seconds})) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const rows = await db
    .insert(settings)
    .values({ key: LEASE_KEY, value: until })
    .onConflictDoUpdate({
      target: settings.key,
      set: { value: until, updatedAt: sql`now()` },
      setWhere: sql`${settings.value}::timestamptz <= now()`,
    })
    .returning({ key: settings.key });
  return rows.length > 0;
}
