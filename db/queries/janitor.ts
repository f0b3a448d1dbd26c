import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { settings } from '../schema';

const LEASE_KEY = 'janitor_lease_until';

/**
 * One janitor per interval across all instances: whoever moves the lease forward first runs,
 * the others see it taken. Returns the winner's lease (its end, as stored), else null.
 */
export async function takeJanitorLease(db: Db, seconds: number): Promise<string | null> {
  const until = sql`to_char((now() + make_interval(secs => ${seconds})) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const rows = await db
    .insert(settings)
    .values({ key: LEASE_KEY, value: until })
    .onConflictDoUpdate({
      target: settings.key,
      set: { value: until, updatedAt: sql`now()` },
      setWhere: sql`${settings.value}::timestamptz <= now()`,
    })
    .returning({ value: settings.value });
  return rows[0]?.value ?? null;
}

/**
 * Ends a lease this instance took (`lease`: what takeJanitorLease returned), so the next
 * instance to start or tick runs at once; a lease another instance took since is left alone.
 */
export async function releaseJanitorLease(db: Db, lease: string): Promise<void> {
  const now = sql`to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  await db
    .update(settings)
    .set({ value: now, updatedAt: sql`now()` })
    .where(and(eq(settings.key, LEASE_KEY), eq(settings.value, lease)));
}
