import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, TEST_ADMIN_TOKEN, TEST_SCRYPT_LOG_N, tempDir } from './server';

/** What the compiled server module exports (server.ts): the service without the process around it. */
interface ServerModule {
  parseEnv(source: Record<string, string | undefined>): unknown;
  startService(env: unknown, opts: { log: (line: string) => void; warn: (line: string) => void; pages?: boolean }): Promise<{ port: number; hostedPort: number | null; front: { innerPort: number; hits(): number; objects(): number } | null; close(): Promise<void> }>;
}

export interface ServiceShape {
  /**
   * Next's pages (and Next in front of /api) as production runs them. Off by default: /api is
   * then answered by the same route modules straight from the listener (lib/http/api-dispatch.ts)
   * and a file's server starts in well under a second instead of Next's boot. A file that reads
   * a page (HTML, the consoles, public/ files, the manifests) asks for `{ pages: true }`.
   */
  pages?: boolean;
}

export interface InProcessServer {
  url: string;
  /** The hosted listener (null under HOSTED_ORIGIN or the sandbox opt-out). */
  hostedUrl: string | null;
  /** The hosted front's inner listener (lib/http/hosted-front.ts), null without a front. */
  innerUrl: string | null;
  /** Requests the hosted front answered itself so far. */
  frontHits: () => number;
  /** Large objects the hosted front streamed from the store itself so far. */
  frontObjects: () => number;
  port: number;
  dataDir: string;
  /** The service's own start-up lines and warnings (what a child server prints on stdout and stderr at boot). */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * The compiled server (.next/htmls/server.mjs, what `npm start` runs), which vitest.config.ts
 * leaves to Node's own loader (server.deps.external): the same code as production, not Vite's
 * transform of the sources.
 */
const SERVER_BUNDLE = path.join(ROOT, '.next/htmls/server.mjs');

/**
 * The real service (Next and the framework-free handlers) inside this test process, on port 0
 * for both listeners. Each has a runtime of its own (database, store, caches, rate limits,
 * timers), so a test file may start several (tests/two-services.test.ts); Next is one per
 * process, so only one of them may have `{ pages: true }`. `env` replaces the storage and
 * database settings of this process's environment entirely, as startServer()'s does.
 */
export async function startInProcess(env: Record<string, string | undefined> = {}, opts: ServiceShape = {}): Promise<InProcessServer> {
  const dataDir = env.DATA_DIR ?? tempDir();
  mkdirSync(dataDir, { recursive: true });
  // Next picks its React build (and its own mode) from NODE_ENV, as `npm start` sets it.
  (process.env as Record<string, string>).NODE_ENV = 'production';
  process.env.NEXT_TELEMETRY_DISABLED = '1';
  // Next replaces the global fetch at its first render (request dedupe and its data cache): in
  // this process that is the test's own fetch, whose clone-and-tee replies then never finish
  // a cancelled body. Our pages fetch nothing on the server, so Next is told it patched already.
  (globalThis as Record<symbol, unknown>)[Symbol.for('next-patch')] = true;
  const mod = (await import(/* @vite-ignore */ pathToFileURL(SERVER_BUNDLE).href)) as ServerModule;
  const source: Record<string, string | undefined> = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    TRUST_PROXY: '1',
    PASSWORD_SCRYPT_LOG_N: TEST_SCRYPT_LOG_N,
    // Tests send each call from an address of their own but one member's token many times a
    // second: the per-principal budget is on only where a test sets it (security-request-budget).
    REQUESTS_PER_SECOND_PER_PRINCIPAL: '0',
    ...env,
  };
  let out = '';
  const keep = (line: string) => void (out += `${line}\n`);
  const service = await mod.startService(mod.parseEnv(source), { log: keep, warn: keep, pages: opts.pages ?? false });
  const hostedUrl = source.HOSTED_ORIGIN ?? (service.hostedPort ? `http://127.0.0.1:${service.hostedPort}` : null);
  return {
    url: `http://127.0.0.1:${service.port}`,
    hostedUrl,
    innerUrl: service.front ? `http://127.0.0.1:${service.front.innerPort}` : null,
    frontHits: () => service.front?.hits() ?? 0,
    frontObjects: () => service.front?.objects() ?? 0,
    port: service.port,
    dataDir,
    output: () => out,
    stop: () => service.close(),
  };
}
