/**
 * The CLI's resume state: after init, the group id is kept in a 0600 file named by the server
 * and the files (path, size, modification time), so a new run of the same command resumes.
 * Each part the store confirms is added to the file (`stored`), so a person — or a test —
 * can see how far an interrupted upload got without asking the server.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface UploadState {
  baseUrl: string;
  groupId: string;
  /** A guest upload to a file request: its upload token (the only credential it has). */
  uploadToken?: string;
  /** Parts the store confirmed, as "clientPath#partNumber". */
  stored?: string[];
  /** Every part was stored and the complete was sent: a guest's upload gone since was delivered. */
  completing?: boolean;
}

export function fingerprint(baseUrl: string, files: { path: string; size: number; mtimeMs: number }[]): string {
  const h = createHash('sha256').update(baseUrl);
  for (const f of [...files].sort((a, b) => a.path.localeCompare(b.path))) h.update(`\n${f.path}\u0000${f.size}\u0000${Math.floor(f.mtimeMs)}`);
  return h.digest('hex').slice(0, 32);
}

export async function readState(file: string): Promise<UploadState | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as UploadState;
  } catch {
    return null;
  }
}

/** Atomic (temporary file, then rename): a reader never sees half a file. */
export async function writeState(file: string, state: UploadState) {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(state), { mode: 0o600 });
  await rename(tmp, file);
}

export const removeState = (file: string) => rm(file, { force: true });

/**
 * Writes the state after confirmed parts, one write at a time, never losing the last, and at
 * most one write every `everyMs`: parts confirmed meanwhile join the next write (it takes the set
 * when it starts). The first part is written at once; `completing()` and `close()` write what is
 * waiting without waiting. A share of 500 small files costs a few writes, not one per part: a
 * write a part made the state file a large share of the CLI's own time (docs/scale.md). What
 * the file holds is a record for a person or a test; a resume asks the server what is stored.
 */
export function stateRecorder(file: string, state: UploadState, everyMs = 250) {
  const stored = new Set(state.stored ?? []);
  let chain: Promise<void> = Promise.resolve();
  let waiting = false;
  let closed = false;
  let lastWrite = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let release: (() => void) | null = null;
  const hurry = () => {
    clearTimeout(timer);
    release?.();
  };
  const pause = () =>
    new Promise<void>((resolve) => {
      const wait = lastWrite + everyMs - performance.now();
      if (wait <= 0) return resolve();
      release = resolve;
      timer = setTimeout(resolve, wait);
    });
  return {
    partStored(clientPath: string, partNumber: number) {
      if (closed) return;
      stored.add(`${clientPath}#${partNumber}`);
      if (waiting) return;
      waiting = true;
      chain = chain
        .then(pause)
        .then(() => {
          waiting = false;
          release = null;
          lastWrite = performance.now();
          return writeState(file, { ...state, stored: [...stored] });
        })
        .catch(() => {});
    },
    /** Marks the complete as sent; resolves once that is on disk. */
    completing() {
      hurry();
      if (!closed) chain = chain.then(() => writeState(file, { ...state, stored: [...stored], completing: true })).catch(() => {});
      return chain;
    },
    /** No more writes; resolves once the last one is done (then the file may be removed). */
    close: () => {
      closed = true;
      hurry();
      return chain;
    },
  };
}
