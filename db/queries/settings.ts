import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { settings } from '../schema';

export const SETTING = {
  adminTokenHash: 'admin_token_hash',
  serverSecret: 'server_secret',
  defaultQuotaBytes: 'default_quota_bytes',
} as const;

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

export async function deleteSetting(db: Db, key: string): Promise<void> {
  await db.delete(settings).where(eq(settings.key, key));
}

/** Stores value unless the key exists; returns whichever value won (safe across instances). */
export async function getOrCreateSetting(db: Db, key: string, value: string): Promise<string> {
  await db.insert(settings).values({ key, value }).onConflictDoNothing({ target: settings.key });
  return (await getSetting(db, key))!;
}
