import { describe, it, type TestFunction } from 'vitest';
import { postgresUrl, useS3Storage } from './env';

/**
 * Tests that need a service this run may not have. When the service is missing, the tests are
 * skipped with the reason in their name (tests/support/skip-reporter.ts lists every skipped
 * test and why at the end of the run). When HTMLS_REQUIRE names the service (.ci/run sets
 * `HTMLS_REQUIRE=postgres,s3` for its PostgreSQL + S3 pass), a missing service is a failure,
 * not a skip: CI cannot go green while a configuration it should cover was never exercised.
 */
export type Service = 'postgres' | 's3';

const services: Record<Service, { available: () => boolean; unset: string }> = {
  postgres: { available: () => postgresUrl() !== null, unset: 'DATABASE_URL is not set' },
  s3: { available: () => useS3Storage(), unset: 'STORAGE=s3 with S3_ENDPOINT and S3 keys is not set' },
};

/** The services HTMLS_REQUIRE names (comma-separated); an unknown name is an error. */
export function requiredServices(env: NodeJS.ProcessEnv = process.env): Service[] {
  const names = (env.HTMLS_REQUIRE ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of names) {
    if (!(n in services)) throw new Error(`HTMLS_REQUIRE: unknown service "${n}" (known: ${Object.keys(services).join(', ')})`);
  }
  return names as Service[];
}

/** Why the run lacks `wanted`, or null when it has all of them; throws when a missing one is required. */
export function missingReason(...wanted: Service[]): string | null {
  const missing = wanted.filter((s) => !services[s].available());
  if (missing.length === 0) return null;
  const reason = `needs ${missing.join(' + ')}: ${missing.map((s) => services[s].unset).join('; ')}`;
  const required = requiredServices().filter((s) => missing.includes(s));
  if (required.length > 0) throw new Error(`HTMLS_REQUIRE=${process.env.HTMLS_REQUIRE} but this run ${reason}`);
  return reason;
}

/**
 * `requires('postgres').describe(name, fn)`: the suite runs when PostgreSQL is configured, is
 * skipped with the reason otherwise, and fails to load when HTMLS_REQUIRE names postgres.
 */
export function requires(...wanted: Service[]) {
  const reason = missingReason(...wanted);
  const title = (name: string) => (reason ? `${name} [skipped: ${reason}]` : name);
  return {
    reason,
    describe: (name: string, fn: () => void) => (reason ? describe.skip : describe)(title(name), fn),
    it: (name: string, fn: TestFunction, timeout?: number) => (reason ? it.skip : it)(title(name), fn, timeout),
  };
}
