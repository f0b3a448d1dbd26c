import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';
/**
 * The test servers hash passwords at scrypt's lowest cost (N=2^10, ~1/30 of the default's time):
 * the same code and format, and the suite makes hundreds of members. tests/security-scrypt.test.ts
 * runs at the default cost, where a hash's time is what it is about.
 */
export const TEST_SCRYPT_LOG_N = '10';

export interface RunningServer {
  url: string;
  /** Where hosted sites are: the second listener, or HOSTED_ORIGIN's base (null under the sandbox opt-out). */
  hostedUrl: string | null;
  port: number;
  dataDir: string;
  proc: ChildProcess;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

export async function freePort(): Promise<number> {
  return (await freePorts(1))[0];
}

/**
 * `n` distinct free ports: every socket stays bound until all are chosen, so the kernel cannot hand
 * out one port twice (seen in CI: PORT and HOSTED_PORT drawn equal, "HOSTED_PORT must differ from PORT").
 */
export async function freePorts(n: number): Promise<number[]> {
  const held = await Promise.all(
    Array.from({ length: n }, () =>
      new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
        const s = createServer();
        s.on('error', reject);
        s.listen(0, '127.0.0.1', () => resolve(s));
      }),
    ),
  );
  const ports = held.map((s) => (s.address() as { port: number }).port);
  await Promise.all(held.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

/**
 * What `npm run db:migrate` runs, without its build step (the suite's setup built): migrates the
 * database `env` names (DATABASE_URL, else the PGlite database in DATA_DIR).
 */
export function migrate(env: { DATA_DIR?: string; DATABASE_URL?: string }): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ['scripts/start.mjs', '--migrate', '--no-build'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, NODE_ENV: 'production', ...env },
    encoding: 'utf8',
  });
}

/**
 * `npm test` is the developers' loop: every file's server runs inside the test's own process.
 * A test that starts one of our programs as a process (the server, `npm start`, the CLI) is a
 * slow-tier file (`*.slow.test.ts`, `npm run test:slow`, run by CI on both configurations):
 * a process's boot is seconds of CPU that the loop's 150 s would not hold (docs/testing.md).
 * Playwright's specs (not vitest's) start child servers as they like.
 */
export function inSlowTier(what: string): void {
  if (process.env.VITEST && process.env.HTMLS_TEST_TIER !== 'slow') throw new Error(`this test ${what}: it belongs in the slow tier (name its file *.slow.test.ts; npm run test:slow)`);
}

export const tempDir = (prefix = 'htmls-test-') => mkdtempSync(path.join(os.tmpdir(), prefix));

/**
 * Starts the real production server (`npm start` without its build step: the compiled
 * server.ts over the last `next build`) as a child process and waits until it listens. `env`
 * replaces the storage/database settings of the parent's environment entirely, so each server
 * sees exactly what the test chose. Without a PORT of the test's choosing both listeners bind
 * port 0 and the server says which ports it got. For tests about processes (signals, two
 * instances, boot); the file's own server runs in the test's process (useFileServer()).
 * `viaNpm` starts it as `npm start` does, and `proc` is then npm's process.
 */
export async function startServer(env: Record<string, string | undefined> = {}, opts: { viaNpm?: boolean } = {}): Promise<RunningServer> {
  inSlowTier('starts the server as a process of its own');
  const dataDir = env.DATA_DIR ?? tempDir();
  const base: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    // The run's temporary directory (tests/support/global-setup.ts), removed when it ends.
    TMPDIR: process.env.TMPDIR,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    TRUST_PROXY: '1',
    PASSWORD_SCRYPT_LOG_N: TEST_SCRYPT_LOG_N,
    // Tests send each call from an address of their own but one member's token many times a
    // second: the per-principal budget is on only where a test sets it (security-request-budget).
    REQUESTS_PER_SECOND_PER_PRINCIPAL: '0',
  };
  // A PORT of the test's choosing would put the hosted listener on PORT + 1, which another
  // process may hold: that listener gets a port drawn free too.
  if (env.PORT && env.PORT !== '0' && env.HOSTED_PORT === undefined && env.HOSTED_ORIGIN === undefined) {
    base.HOSTED_PORT = String((await freePorts(2)).find((p) => String(p) !== env.PORT));
  }
  const merged = Object.fromEntries(Object.entries({ ...base, ...env }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
  // viaNpm: `npm start` itself (the process a Dockerfile's CMD or a plain kill signals), not node.
  // --liftoff-only: as the test files' own processes (vitest.config.ts says why).
  const [command, args] = opts.viaNpm ? ['npm', ['start', '--', '--no-build']] : [process.execPath, ['--liftoff-only', 'scripts/start.mjs', '--no-build']];
  const proc: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: merged,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  // Every test server's console goes to .tmp/ too, so a CI failure can show the server side.
  mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  const log = createWriteStream(path.join(ROOT, '.tmp', `server-${proc.pid}.log`));
  proc.once('exit', () => log.end());
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running behind the failure (a test's own server would serve on for ever).
      proc.kill('SIGKILL');
      reject(new Error(`server did not start in time:\n${out}`));
    }, 60_000);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    };
    proc.once('exit', onExit);
    const keep = (d: Buffer) => {
      out += d;
      log.write(d);
      if (out.includes('[htmls] listening on')) {
        clearTimeout(timer);
        proc.off('exit', onExit);
        resolve();
      }
    };
    proc.stdout!.on('data', keep);
    proc.stderr!.on('data', keep);
  });
  const port = Number(/\[htmls\] listening on http:\/\/[^:]+:(\d+)/.exec(out)![1]);
  const hostedPort = /\[htmls\] hosted sites on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
  return {
    url: `http://127.0.0.1:${port}`,
    hostedUrl: env.HOSTED_ORIGIN ?? (hostedPort ? `http://127.0.0.1:${hostedPort}` : null),
    port,
    dataDir,
    proc,
    output: () => out,
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill(signal);
        setTimeout(() => proc.kill('SIGKILL'), 8000).unref();
      }),
  };
}
