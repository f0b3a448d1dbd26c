import 'server-only';
import { purgeOldActivity } from '@/db/queries/activity';
import { purgeOldAudit, snapshotStorage } from '@/db/queries/audit';
import { emitExpiredShares, emitExpiringShares, purgeOldEvents } from '@/db/queries/events';
import type { Runtime } from '../runtime';

/**
 * The janitor's share of events: share.expired as expiries pass, and the retention of the logs.
 * lib/boot.ts registers them with the janitor, which sits above the use cases.
 */
export const eventJanitorTasks: readonly ((rt: Runtime) => Promise<unknown>)[] = [
  async (rt) => {
    while ((await emitExpiredShares(rt.db)) > 0);
    while ((await emitExpiringShares(rt.db)) > 0);
  },
  (rt) => purgeOldActivity(rt.db, rt.env.events.activityRetentionDays),
  (rt) => purgeOldEvents(rt.db, rt.env.events.activityRetentionDays),
  (rt) => purgeOldAudit(rt.db, rt.env.events.activityRetentionDays * 12),
  (rt) => snapshotStorage(rt.db),
];
