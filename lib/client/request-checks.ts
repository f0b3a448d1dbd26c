import { formatBytesPair } from '../format-bytes';

/** What the guest page knows of a request's limits (app/r/[id]/page.tsx). */
export interface RequestLimits {
  maxFiles: number;
  maxBytes: number;
  allowedTypes: string[] | null;
}

/** "PDF or video", "JPG, PNG or PDF". */
export function typesInWords(types: string[]): string {
  const words = types.map((t) => (t.endsWith('/*') ? t.slice(0, -2) : t.startsWith('.') ? t.slice(1).toUpperCase() : t));
  return words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/**
 * The picker's `accept` (`video/*,.pdf`): the browser offers matching files first. Only a hint —
 * "All files" stays one click away — so every pick is still checked (fileRefusal).
 */
export const acceptAttribute = (allowed: string[] | null): string | undefined => (allowed && allowed.length ? allowed.join(',') : undefined);

const extensionOf = (name: string) => {
  const base = name.slice(name.lastIndexOf('/') + 1).toLowerCase();
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot) : '';
};

/** Whether a file's extension or its browser-given type is one the request takes. */
export function typeAllowed(allowed: string[] | null, path: string, type: string): boolean {
  if (!allowed) return true;
  const ext = extensionOf(path);
  const t = type.toLowerCase();
  return allowed.some((a) => (a.startsWith('.') ? a === ext : a.endsWith('/*') ? t.startsWith(a.slice(0, -1)) : a === t));
}

/**
 * Why the request refuses this one file (its type, or a size alone above the limit), in words
 * shown beside it in the list as soon as it is picked; null when it may go. The server checks again.
 */
export function fileRefusal(r: RequestLimits, f: { path: string; size: number; type: string }): string | null {
  if (!typeAllowed(r.allowedTypes, f.path, f.type)) return `Not a type this request takes (${typesInWords(r.allowedTypes!)}).`;
  if (f.size > r.maxBytes) {
    const [max, got] = formatBytesPair(r.maxBytes, f.size);
    return `Too large: this request takes at most ${max} in all; this file is ${got}.`;
  }
  return null;
}

/** Why the request refuses the files together (their count or total size); null when they fit. */
export function listRefusal(r: RequestLimits, files: { size: number }[]): string | null {
  if (files.length > r.maxFiles) return `This request takes at most ${r.maxFiles} ${r.maxFiles === 1 ? 'file' : 'files'}; you chose ${files.length}. Remove ${files.length - r.maxFiles}.`;
  const total = files.reduce((n, f) => n + f.size, 0);
  if (total > r.maxBytes) {
    const [max, got] = formatBytesPair(r.maxBytes, total);
    return `This request takes at most ${max} in all; these files are ${got}.`;
  }
  return null;
}

/** What the Send button refuses: no file, a flagged file, or files that do not fit together. */
export function sendRefusal(r: RequestLimits, files: { path: string; size: number; type: string }[]): string | null {
  if (files.length === 0) return 'Choose at least one file.';
  for (const f of files) {
    const why = fileRefusal(r, f);
    if (why) return `${f.path}: ${why} Remove it to send the others.`;
  }
  return listRefusal(r, files);
}

/** Adds a new pick to the list: a path picked again replaces its earlier file. */
export function mergePicked<T extends { path: string }>(list: T[], added: T[]): T[] {
  const paths = new Set(added.map((f) => f.path));
  return [...list.filter((f) => !paths.has(f.path)), ...added];
}

/** "trip/a.bin, trip/b.bin and 3 more": the files a resumed upload needs again. */
export function namesInWords(paths: string[], shown = 5): string {
  if (paths.length <= shown) return paths.length === 1 ? paths[0] : `${paths.slice(0, -1).join(', ')} and ${paths[paths.length - 1]}`;
  return `${paths.slice(0, shown).join(', ')} and ${paths.length - shown} more`;
}
