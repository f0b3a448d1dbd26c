import { spawn } from 'node:child_process';
import path from 'node:path';
import { inSlowTier, ROOT } from './server';

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts the real CLI (bin/htmls.mjs) as a user would: its own config dir (`HTMLS_CONFIG_DIR`,
 * also its HOME), no OS keyring, secrets only from `env`. `proc` is there to kill it mid-way.
 */
export function startCli(args: string[], env: Record<string, string>, cwd = ROOT) {
  inSlowTier('runs the CLI as a program');
  const proc = spawn(process.execPath, [path.join(ROOT, 'bin/htmls.mjs'), ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: env.HTMLS_CONFIG_DIR, TMPDIR: process.env.TMPDIR, HTMLS_NO_KEYRING: '1', ...env } as unknown as NodeJS.ProcessEnv,
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d) => (stdout += d));
  proc.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<CliRun>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { proc, done };
}

/** Runs the CLI to its end. */
export const htmls = (args: string[], env: Record<string, string>, cwd = ROOT) => startCli(args, env, cwd).done;
