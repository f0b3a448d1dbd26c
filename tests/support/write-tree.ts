import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes `files` (relative path → contents) under `root`, making the folders they need. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, data] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, data);
  }
}
