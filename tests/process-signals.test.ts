import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { postgresUrl } from './support/env';
import { call } from './support/http';
import { migratedServiceEnv } from './support/file-server';
import { startServer, type RunningServer } from './support/server';

/** Whether anything accepts connections on the port now. */
const accepting = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** The server's own process: npm's child (`npm start` execs node in place of its shell). */
const serverPid = (npm: RunningServer) => Number(readFileSync(`/proc/${npm.proc.pid}/task/${npm.proc.pid}/children`, 'utf8').trim().split(' ')[0]);

/** Ends a server a failing test left running without npm. */
function killServer(pid: number) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone already */
  }
}

/** The janitor runs this instance made so far (GET /api/health). */
const janitorRuns = async (server: RunningServer) => (await call('GET', '/api/health', { base: server.url })).json.janitor.runs as number;

/**
 * Issue 41, item 6: `npm start` runs its script through `sh -c`, which did not pass npm's
 * SIGTERM on: the server kept serving after `kill <npm>` or a container's stop. And a restart
 * waited out the old process's janitor lease (an interval, 10 minutes by default).
 */
describe('stopping npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s to the npm start process stops the server: its ports close and npm exits', { timeout: 120_000 }, async (signal) => {
    const server = await startServer(await migratedServiceEnv(), { viaNpm: true });
    const pid = serverPid(server);
    try {
      const hostedPort = Number(new URL(server.hostedUrl!).port);
      expect(await accepting(server.port)).toBe(true);
      const exited = new Promise<number | null>((resolve) => server.proc.once('exit', (code) => resolve(code)));
      server.proc.kill(signal);
      // npm waits for its script and exits with its status: the server's clean stop.
      expect(await exited).toBe(0);
      expect(await accepting(server.port)).toBe(false);
      expect(await accepting(hostedPort)).toBe(false);
    } finally {
      killServer(pid);
    }
  });

  it('a signal npm does not pass on (SIGHUP) ends npm, and the server notices and stops', { timeout: 120_000 }, async () => {
    const server = await startServer(await migratedServiceEnv(), { viaNpm: true });
    const pid = serverPid(server);
    try {
      server.proc.kill('SIGHUP');
      await expect.poll(() => server.output(), { timeout: 30_000 }).toContain('npm, which started this server, is gone');
      await expect.poll(() => accepting(server.port), { timeout: 30_000 }).toBe(false);
    } finally {
      killServer(pid);
    }
  });
});

describe('the janitor after a restart', () => {
  it('runs at once after a clean stop (the stop gives its lease back), not an interval later', { timeout: 180_000 }, async () => {
    const env = await migratedServiceEnv();
    // The default interval: 10 minutes, far longer than this test waits.
    const a = await startServer({ ...env, JANITOR_INTERVAL_SECONDS: '600' });
    try {
      await expect.poll(() => janitorRuns(a), { timeout: 60_000 }).toBe(1);
    } finally {
      await a.stop('SIGTERM');
    }
    const b = await startServer({ ...env, DATA_DIR: a.dataDir, JANITOR_INTERVAL_SECONDS: '600' });
    try {
      await expect.poll(() => janitorRuns(b), { timeout: 60_000 }).toBe(1);
    } finally {
      await b.stop();
    }
  });

  const embedded = postgresUrl() === null;
  const killed = 'on the embedded database, runs at once even after the old process was killed (one process: no lease to wait for)';
  (embedded ? it : it.skip)(embedded ? killed : `${killed} [skipped: on PostgreSQL a killed instance's lease stands: another instance may be running]`, { timeout: 180_000 }, async () => {
    const env = await migratedServiceEnv();
    const a = await startServer({ ...env, JANITOR_INTERVAL_SECONDS: '600' });
    await expect.poll(() => janitorRuns(a), { timeout: 60_000 }).toBe(1);
    await a.stop('SIGKILL');
    const b = await startServer({ ...env, DATA_DIR: a.dataDir, JANITOR_INTERVAL_SECONDS: '600' });
    try {
      await expect.poll(() => janitorRuns(b), { timeout: 60_000 }).toBe(1);
    } finally {
      await b.stop();
    }
  });
});
