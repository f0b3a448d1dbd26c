import 'server-only';
import { perRuntime, type Runtime } from './runtime';

/**
 * What this instance's janitor did since it started, shown on /api/health: operators (and the
 * tests) see that it runs, and that the lease gives one instance each interval.
 */
const statsOf = perRuntime(() => ({ runs: 0, lastRunAt: null as string | null }));

export function countJanitorRun(rt: Runtime): void {
  const stats = statsOf(rt);
  stats.runs += 1;
  stats.lastRunAt = new Date().toISOString();
}

export const janitorStats = (rt: Runtime) => {
  const stats = statsOf(rt);
  return { runs: stats.runs, last_run_at: stats.lastRunAt };
};
