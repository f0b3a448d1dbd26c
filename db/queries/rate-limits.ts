import 'server-only';
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { rateLimits } from '../schema';

/**
 * Counts one hit in a fixed window, atomically, and returns the count so far and the
 * seconds until the window ends. One statement, so instances sharing the database agree.
 */
export async function hitRateLimit(
  db: Db,
  key: string,
  windowSeconds: number,
): Promise<{ count: number; resetInSeconds: number }> {
  const window = sql`make_interval(secs => ${windowSeconds})`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: sql`now()`, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} <= now() - ${window} then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${rateLimits.windowStart} <= now() - ${window} then now() else ${rateLimits.windowStart} end`,
      },
    })
    .returning({
      count: rateLimits.count,
      reset: sql<number>`ceil(extract(epoch from (${rateLimits.windowStart} + ${window} - now())))::int`,
    });
  return { count: row.count, resetInSeconds: Math.max(1, Number(row.reset)) };
}

export async function purgeRateLimits(db: Db, olderThanSeconds: number): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, sql`now() - make_interval(secs => ${olderThanSeconds})`));
}

/** The hits counted so far in the current window, without counting one. */
export async function peekRateLimit(db: Db, key: string, windowSeconds: number): Promise<{ count: number; resetInSeconds: number }> {
  const window = sql`make_interval(secs => ${windowSeconds})`;
  const [row] = await db
    .select({
      count: rateLimits.count,
      reset: sql<number>`ceil(extract(epoch from (${rateLimits.windowStart} + ${window} - now())))::int`,
    })
    .from(rateLimits)
    .where(sql`${rateLimits.key} = ${key} and ${rateLimits.windowStart} > now() - ${window}`);
  return row ? { count: row.count, resetInSeconds: Math.max(1, Number(row.reset)) } : { count: 0, resetInSeconds: windowSeconds };
}
