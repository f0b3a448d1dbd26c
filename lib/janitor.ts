import 'server-only';
import { purgeExpiredCliHandoffs } from '@/db/queries/cli-handoffs';
import { purgeExpiredTickets } from '@/db/queries/download-tickets';
import { releaseJanitorLease, takeJanitorLease } from '@/db/queries/janitor';
import { purgeExpiredWebauthnChallenges } from '@/db/queries/passkeys';
import { purgeRateLimits } from '@/db/queries/rate-limits';
import { purgeExpiredChallenges } from '@/db/queries/second-factor';
import { purgeExpiredSessions } from '@/db/queries/sessions';
import { inService, perRuntime, type Runtime } from './runtime';
import { LONGEST_REQUEST_MS } from './http/timeouts';
import { countJanitorRun } from './janitor-stats';
import { runDeletions } from './storage/gc';
import { sweepZipSpools } from './hosting/unpack-zip';

type Task = (rt: Runtime) => Promise<unknown>;

/** Every service's cleanup jobs; others are added per service (lib/boot.ts: the share uploads'). */
const baseTasks: Task[] = [
  runAllDeletions,
  // A temporary file older than any request can live was left behind by a crash.
  (rt) => rt.storage.capabilities.temporaryFiles?.sweep(new Date(Date.now() - LONGEST_REQUEST_MS)) ?? Promise.resolve(0),
  // So was a site's zip spool older than that (the upload request that wrote it is over).
  () => sweepZipSpools(new Date(Date.now() - LONGEST_REQUEST_MS)),
  (rt) => purgeExpiredSessions(rt.db),
  (rt) => purgeExpiredChallenges(rt.db),
  (rt) => purgeExpiredWebauthnChallenges(rt.db),
  (rt) => purgeExpiredCliHandoffs(rt.db),
  (rt) => purgeRateLimits(rt.db, 3600),
  (rt) => purgeExpiredTickets(rt.db),
];

/** Due deletions, batch after batch until none is left, a batch fails entirely or the service stops. */
async function runAllDeletions(rt: Runtime): Promise<void> {
  while (!stateOf(rt).stopping && (await runDeletions(rt)) > 0);
}

/** Adds a cleanup job to `rt`'s service's janitor. */
export function registerJanitorTask(rt: Runtime, task: Task): void {
  stateOf(rt).tasks.push(task);
}

/** One service's janitor. */
const stateOf = perRuntime(() => ({
  tasks: [...baseTasks],
  timers: [] as NodeJS.Timeout[],
  /** The run in progress: a stop waits for it, as the database closes after the stop. */
  running: null as Promise<boolean> | null,
  /** Set by stopJanitor: a run in progress ends after its current task. */
  stopping: false,
  lease: null as string | null,
}));

/**
 * Runs every task once if this instance holds the lease; true when it ran. The embedded
 * database (PGlite) belongs to one process, so no other instance can be running the janitor:
 * it takes no lease, and a restart never waits out the lease of the process it replaced.
 */
function runJanitor(rt: Runtime): Promise<boolean> {
  const state = stateOf(rt);
  // One run at a time per service: a run longer than the interval is not doubled.
  if (state.running || state.stopping) return Promise.resolve(false);
  const run = inService(rt, () => runTasks(rt)).finally(() => {
    state.running = null;
  });
  state.running = run;
  return run;
}

async function runTasks(rt: Runtime): Promise<boolean> {
  const state = stateOf(rt);
  if (rt.env.databaseUrl) {
    const leaseSeconds = Math.max(1, Math.floor(rt.env.janitorIntervalMs / 1000) - 1);
    state.lease = await takeJanitorLease(rt.db, leaseSeconds);
    if (!state.lease) return false;
  }
  countJanitorRun(rt);
  for (const task of state.tasks) {
    // The service is stopping and its database closes next: the rest waits for the next run.
    if (state.stopping) break;
    try {
      await task(rt);
    } catch (e) {
      console.error('[htmls] janitor task failed:', (e as Error).message);
    }
  }
  return true;
}

/** At start and then on the interval; never keeps the process alive by itself. */
export function startJanitor(rt: Runtime): void {
  const state = stateOf(rt);
  state.stopping = false;
  const tick = () => void runJanitor(rt).catch((e) => console.error('[htmls] janitor failed:', (e as Error).message));
  state.timers.push(setTimeout(tick, 1000).unref(), setInterval(tick, rt.env.janitorIntervalMs).unref());
}

/**
 * At shutdown, before the database closes: no run starts any more, a run in progress ends after
 * its current task (it used to go on through the rest on the closed database), and a lease this
 * instance holds is given back, so the instance that starts next (or another one) runs at once
 * instead of waiting out an interval of a process that is gone.
 */
export async function stopJanitor(rt: Runtime): Promise<void> {
  const state = stateOf(rt);
  for (const t of state.timers.splice(0)) clearTimeout(t);
  state.stopping = true;
  await state.running?.catch(() => false);
  const { lease } = state;
  state.lease = null;
  if (lease) await releaseJanitorLease(rt.db, lease).catch((e) => console.error('[htmls] could not release the janitor lease:', (e as Error).message));
}
