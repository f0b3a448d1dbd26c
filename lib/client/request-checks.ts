import { formatBytesPair } from '../format-bytes';

/** What the guest page knows of a request's limits (app/r/[id]/page.tsx). */
export interface RequestLimits {
  maxFiles: number;
  maxBytes: number;
  allowedTypes: string[] | null;
}

/**
 * The request page's words in the guest's language: next-intl's translator for the `request`
 * namespace (messages/<locale>.json) and the locale, for sizes and lists through Intl.
 */
export interface Words {
  locale: string;
  t: (key: 'wrongType' | 'fileTooLarge' | 'tooMany' | 'tooBig' | 'noFile' | 'fileRefused' | 'more' | 'typeGroup', values?: Record<string, string | number>) => string;
}

/** "PDF or video", "JPG, PNG or PDF" in the guest's language (Intl.ListFormat; `video/*` named in words). */
export function typesInWords(types: string[], w: Words): string {
  const words = types.map((t) => (t.endsWith('/*') ? w.t('typeGroup', { group: t.slice(0, -2) }) : t.startsWith('.') ? t.slice(1).toUpperCase() : t));
  return new Intl.ListFormat(w.locale, { type: 'disjunction' }).format(words);
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
export function fileRefusal(r: RequestLimits, f: { path: string; size: number; type: string }, w: Words): string | null {
  if (!typeAllowed(r.allowedTypes, f.path, f.type)) return w.t('wrongType', { types: typesInWords(r.allowedTypes!, w) });
  if (f.size > r.maxBytes) {
    const [max, size] = formatBytesPair(r.maxBytes, f.size, w.locale);
    return w.t('fileTooLarge', { max, size });
  }
  return null;
}

/** Why the request refuses the files together (their count or total size); null when they fit. */
export function listRefusal(r: RequestLimits, files: { size: number }[], w: Words): string | null {
  if (files.length > r.maxFiles) return w.t('tooMany', { max: r.maxFiles, count: files.length, extra: files.length - r.maxFiles });
  const total = files.reduce((n, f) => n + f.size, 0);
  if (total > r.maxBytes) {
    const [max, size] = formatBytesPair(r.maxBytes, total, w.locale);
    return w.t('tooBig', { max, size });
  }
  return null;
}

/** What the Send button refuses: no file, a flagged file, or files that do not fit together. */
export function sendRefusal(r: RequestLimits, files: { path: string; size: number; type: string }[], w: Words): string | null {
  if (files.length === 0) return w.t('noFile');
  for (const f of files) {
    const why = fileRefusal(r, f, w);
    if (why) return w.t('fileRefused', { name: f.path, reason: why });
  }
  return listRefusal(r, files, w);
}

/** Adds a new pick to the list: a path picked again replaces its earlier file. */
export function mergePicked<T extends { path: string }>(list: T[], added: T[]): T[] {
  const paths = new Set(added.map((f) => f.path));
  return [...list.filter((f) => !paths.has(f.path)), ...added];
}

/** "trip/a.bin, trip/b.bin and 3 more": the files a resumed upload needs again (Intl.ListFormat). */
export function namesInWords(paths: string[], w: Words, shown = 5): string {
  const list = new Intl.ListFormat(w.locale, { type: 'conjunction' });
  if (paths.length <= shown) return list.format(paths);
  return list.format([...paths.slice(0, shown), w.t('more', { count: paths.length - shown })]);
}
