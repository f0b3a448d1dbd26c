import 'server-only';
import { purgeOldActivity } from '@/db/queries/activity';
import { purgeOldAudit, snapshotStorage } from '@/db/queries/audit';
import { emitExpiredShares, emitExpiringShares, purgeOldEvents } from '@/db/queries/events';
import { registerJanitorTask } from '../janitor';

const registered = { done: false };

/** The janitor's share of events: share.expired as expiries pass, and the retention of the logs. */
export function registerEventTasks(): void {
  if (registered.done) return;
  registered.done = true;
  registerJanitorTask(async (rt) => {
    while ((await emitExpiredShares(rt.db)) > 0);
    while ((await emitExpiringShares(rt.db)) > 0);
  });
  registerJanitorTask((rt) => purgeOldActivity(rt.db, rt.env.events.activityRetentionDays));
  registerJanitorTask((rt) => purgeOldEvents(rt.db, rt.env.events.activityRetentionDays));
  registerJanitorTask((rt) => purgeOldAudit(rt.db, rt.env.events.activityRetentionDays * 12));
  registerJanitorTask((rt) => snapshotStorage(rt.db));
}
