import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Makes one temporary directory for a test run and points TMPDIR at it, so every temporary
 * directory of the run — servers' data, CLI homes, files tests write — is made under it (test
 * processes inherit TMPDIR): a run used to leave a gigabyte or more in the system's /tmp.
 * Returns what removes it when the run ends: retried (a server a timed-out test left running
 * may still write there), and never a failure.
 */
export function useRunDir(prefix: string): () => void {
  const runDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  process.env.TMPDIR = runDir;
  return () => {
    try {
      rmSync(runDir, { recursive: true, force: true, maxRetries: 5 });
    } catch (e) {
      console.warn(`could not remove ${runDir}: ${(e as Error).message}`);
    }
  };
}
