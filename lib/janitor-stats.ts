import 'server-only';

/**
 * What this instance's janitor did since it started, shown on /api/health: operators (and the
 * tests) see that it runs, and that the lease gives one instance each interval.
 */
const stats = { runs: 0, lastRunAt: null as string | null };

export function countJanitorRun(): void {
  stats.runs += 1;
  stats.lastRunAt = new Date().toISOString();
}

export const janitorStats = () => ({ runs: stats.runs, last_run_at: stats.lastRunAt });
