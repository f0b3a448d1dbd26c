/**
 * The CLI's resume state: after init, the group id is kept in a 0600 file named by the server
 * and the files (path, size, modification time), so a new run of the same command resumes.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface UploadState {
  baseUrl: string;
  groupId: string;
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

export async function writeState(file: string, state: UploadState) {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, JSON.stringify(state), { mode: 0o600 });
}

export const removeState = (file: string) => rm(file, { force: true });
