import 'server-only';
import { purgeExpiredTickets } from '@/db/queries/download-tickets';
import { takeJanitorLease } from '@/db/queries/janitor';
import { purgeRateLimits } from '@/db/queries/rate-limits';
import { purgeExpiredSessions } from '@/db/queries/sessions';
import type { Runtime } from './runtime';
import { LONGEST_REQUEST_MS } from './http/timeouts';
import { countJanitorRun } from './janitor-stats';
import { processState } from './process-state';
import { runDeletions } from './storage/gc';
import { sweepZipSpools } from './hosting/unpack-zip';

type Task = (rt: Runtime) => Promise<unknown>;

/** Cleanup jobs other modules add (the share uploads register theirs). */
const tasks: Task[] = [
  runAllDeletions,
  // A temporary file older than any request can live was left behind by a crash.
  (rt) => rt.storage.sweepTemporary?.(new Date(Date.now() - LONGEST_REQUEST_MS)) ?? Promise.resolve(0),
  // So was a site's zip spool older than that (the upload request that wrote it is over).
  () => sweepZipSpools(new Date(Date.now() - LONGEST_REQUEST_MS)),
  (rt) => purgeExpiredSessions(rt.db),
  (rt) => purgeRateLimits(rt.db, 3600),
  (rt) => purgeExpiredTickets(rt.db),
];

/** Due deletions, batch after batch until none is left or a batch fails entirely. */
async function runAllDeletions(rt: Runtime): Promise<void> {
  while ((await runDeletions(rt)) > 0);
}

export function registerJanitorTask(task: Task): void {
  tasks.push(task);
}

/** Runs every task once if this instance holds the lease; true when it ran. */
async function runJanitor(rt: Runtime, opts: { force?: boolean } = {}): Promise<boolean> {
  const leaseSeconds = Math.max(1, Math.floor(rt.env.janitorIntervalMs / 1000) - 1);
  if (!opts.force && !(await takeJanitorLease(rt.db, leaseSeconds))) return false;
  countJanitorRun();
  for (const task of tasks) {
    try {
      await task(rt);
    } catch (e) {
      console.error('[htmls] janitor task failed:', (e as Error).message);
    }
  }
  return true;
}

const timers = processState('janitor-timers', () => [] as NodeJS.Timeout[]);

/** At start and then on the interval; never keeps the process alive by itself. */
export function startJanitor(rt: Runtime): void {
  const tick = () => void runJanitor(rt).catch((e) => console.error('[htmls] janitor failed:', (e as Error).message));
  timers.push(setTimeout(tick, 1000).unref(), setInterval(tick, rt.env.janitorIntervalMs).unref());
}

/** At shutdown: no run starts on a closed database. */
export function stopJanitor(): void {
  for (const t of timers.splice(0)) clearTimeout(t);
}
