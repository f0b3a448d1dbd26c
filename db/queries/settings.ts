import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { afterCommit, rootDb } from '../transaction';
import { settings } from '../schema';

export const SETTING = {
  adminTokenHash: 'admin_token_hash',
  serverSecret: 'server_secret',
  defaultQuotaBytes: 'default_quota_bytes',
} as const;

/**
 * Counters that every change a cache depends on bumps, in the change's own transaction: what a
 * guest could see (hosting, shares), and what ends or changes a signed-in session (sessions).
 */
export const EPOCH = {
  hosting: 'hosting_epoch',
  shares: 'shares_epoch',
  sessions: 'sessions_epoch',
} as const;

export type EpochKey = (typeof EPOCH)[keyof typeof EPOCH];

/**
 * What runs on this instance when an epoch moved here: the caches of what it guards
 * (lib/epoch-cache.ts) drop their entries.
 */
const listenersOf = new WeakMap<Db, Map<EpochKey, Set<(value: string) => void>>>();

/** Adds `listener` to what a move of `key` in `db` (a service's database) calls. */
export function onEpochBump(db: Db, key: EpochKey, listener: (value: string) => void): void {
  let byKey = listenersOf.get(db);
  if (!byKey) listenersOf.set(db, (byKey = new Map()));
  const set = byKey.get(key) ?? new Set();
  byKey.set(key, set.add(listener));
}

/**
 * Moves `key` in `db`'s transaction; once that commits, this instance's listeners run with the
 * value it moved to (the poll then knows that this move is seen: lib/epoch-watch.ts).
 */
export async function bumpEpoch(db: Db, key: EpochKey): Promise<void> {
  const [moved] = await db
    .insert(settings)
    .values({ key, value: '1' })
    .onConflictDoUpdate({ target: settings.key, set: { value: sql`(${settings.value}::bigint + 1)::text`, updatedAt: sql`now()` } })
    .returning({ value: settings.value });
  afterCommit(db, () => {
    for (const listener of listenersOf.get(rootDb(db))?.get(key) ?? []) listener(moved.value);
  });
}

export async function readEpoch(db: Db, key: EpochKey): Promise<string> {
  return (await getSetting(db, key)) ?? '0';
}

export async function getSetting(db: Db, key: string): Promise<string | null> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value ?? null;
}

export async function setSetting(db: Db, key: string, value: string): Promise<void> {
  await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: sql`now()` } });
}

/** Stores value unless the key exists; returns whichever value won (safe across instances). */
export async function getOrCreateSetting(db: Db, key: string, value: string): Promise<string> {
  await db.insert(settings).values({ key, value }).onConflictDoNothing({ target: settings.key });
  return (await getSetting(db, key))!;
}
