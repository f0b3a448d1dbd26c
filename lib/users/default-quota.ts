import 'server-only';
import { getSetting, setSetting, SETTING } from '@/db/queries/settings';
import type { Runtime } from '../runtime';

/** 50 MB (binary), the spec's default for new registrations. */
export const DEFAULT_QUOTA_BYTES = 50 * 1024 * 1024;

export async function getDefaultQuota(rt: Runtime): Promise<number> {
  const v = await getSetting(rt.db, SETTING.defaultQuotaBytes);
  const n = v === null ? NaN : Number(v);
  return Number.isSafeInteger(n) && n >= 0 ? n : DEFAULT_QUOTA_BYTES;
}

/** Only new accounts take the new default; existing users keep their quota. */
export async function setDefaultQuota(rt: Runtime, bytes: number): Promise<number> {
  await setSetting(rt.db, SETTING.defaultQuotaBytes, String(bytes));
  return bytes;
}
