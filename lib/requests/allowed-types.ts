import 'server-only';
import { contentTypeFor, OCTET_STREAM } from '../mime';

/** The MIME type without parameters, lower-cased (`text/plain; charset=utf-8` → `text/plain`). */
const bare = (type: string) => type.split(';')[0].trim().toLowerCase();

const extensionOf = (name: string) => {
  const base = name.slice(name.lastIndexOf('/') + 1).toLowerCase();
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot) : '';
};

/** Whether a MIME type matches an entry (`video/*`, `application/pdf`, or the type of an extension entry). */
function typeMatches(allowed: string[], type: string): boolean {
  const t = bare(type);
  if (!t || t === OCTET_STREAM) return false;
  return allowed.some((a) => {
    if (a.startsWith('.')) return bare(contentTypeFor(`x${a}`)) === t && t !== OCTET_STREAM;
    if (a.endsWith('/*')) return t.startsWith(a.slice(0, -1));
    return t === a;
  });
}

/**
 * A file's name (and the type its sender declared, when specific) against a request's
 * allowed_types: its extension is listed, or its type matches a listed MIME type. Null: any.
 */
export function nameAllowed(allowed: string[] | null, name: string, declaredType?: string): boolean {
  if (!allowed) return true;
  const ext = extensionOf(name);
  const byName = (ext !== '' && allowed.includes(ext)) || typeMatches(allowed, contentTypeFor(name));
  if (!byName) return false;
  const declared = declaredType ? bare(declaredType) : '';
  if (!declared || declared === OCTET_STREAM) return true;
  return typeMatches(allowed, declared) || (ext !== '' && allowed.includes(ext) && bare(contentTypeFor(name)) === declared);
}

/** How many bytes of a file's start the sniffer reads. */
export const SNIFF_BYTES = 4100;

/**
 * The file's first bytes against allowed_types, for types the sniffer (`file-type`) knows: a
 * recognised type must be allowed (its MIME type or its extension); a file it does not
 * recognise (text, CSV…) stands on its name, already checked.
 */
export async function bytesAllowed(allowed: string[] | null, head: Uint8Array): Promise<{ ok: boolean; detected?: string }> {
  if (!allowed || head.length === 0) return { ok: true };
  const { fileTypeFromBuffer } = await import('file-type');
  const found = await fileTypeFromBuffer(head);
  if (!found) return { ok: true };
  const ok = typeMatches(allowed, found.mime) || allowed.includes(`.${found.ext}`);
  return { ok, detected: found.mime };
}

/** allowed_types in plain words: "PDF or video" → used in refusals. */
export function describeTypes(allowed: string[]): string {
  return allowed.map((a) => (a.endsWith('/*') ? a.slice(0, -2) : a.startsWith('.') ? a.slice(1).toUpperCase() : a)).join(', ');
}
