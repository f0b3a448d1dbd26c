export interface Candidate {
  file: File;
  path: string;
}

/** A file of the unfinished upload: its modification time is known when this browser started it. */
export interface PlannedFile {
  clientPath: string;
  size: number;
  lastModified?: number;
}

export interface MatchResult {
  matched: Map<string, File>;
  /** Planned files with no candidate at all. */
  missing: string[];
  /** Planned files found by path but with another size or modification time. */
  changed: string[];
}

/**
 * Matches what the user picked again to the files of an unfinished upload: by path (the same
 * path, or one ending in it — a parent folder picked this time — or the plain file name when
 * single files were picked), then by size and, when it is known, modification time.
 */
export function matchFiles(planned: PlannedFile[], picked: Candidate[]): MatchResult {
  const matched = new Map<string, File>();
  const missing: string[] = [];
  const changed: string[] = [];
  for (const p of planned) {
    const byPath = picked.filter((c) => samePath(c.path, p.clientPath));
    const same = byPath.find((c) => c.file.size === p.size && (p.lastModified === undefined || c.file.lastModified === p.lastModified));
    if (same) matched.set(p.clientPath, same.file);
    else if (byPath.length) changed.push(p.clientPath);
    else missing.push(p.clientPath);
  }
  return { matched, missing, changed };
}

const samePath = (picked: string, planned: string) => picked === planned || picked.endsWith(`/${planned}`) || planned.endsWith(`/${picked}`);
