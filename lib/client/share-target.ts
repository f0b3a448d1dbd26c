import type { PickedFile } from './collect-files';

/** Cache name shared with public/sw.js, which stores what the share sheet posted. */
const SHARED = 'htmls-share-target';

export interface SharedItems {
  files: PickedFile[];
  /** Title, text or link the sharing app sent along, for the note. */
  text: string;
  /** The share sheet sent files but none arrived (no worker took them). */
  missing: boolean;
}

/**
 * Takes (and removes) what the share sheet handed to the service worker. Only when the page
 * was opened by it (`?shared=`), so files never appear on a normal visit.
 */
export async function takeSharedItems(): Promise<SharedItems | null> {
  const params = new URLSearchParams(window.location.search);
  if (!params.has('shared') || !('caches' in window)) return null;
  const cache = await caches.open(SHARED);
  const files: PickedFile[] = [];
  const names = new Set<string>();
  let text = '';
  for (const req of await cache.keys()) {
    const res = await cache.match(req);
    await cache.delete(req);
    if (!res) continue;
    if (new URL(req.url).pathname === '/share-target/note') {
      text = await res.text();
      continue;
    }
    const name = uniqueName(decodeURIComponent(res.headers.get('X-File-Name') ?? 'shared-file'), names);
    const file = new File([await res.blob()], name, {
      type: res.headers.get('Content-Type') ?? '',
      lastModified: Number(res.headers.get('X-Last-Modified')) || Date.now(),
    });
    files.push({ file, path: name });
  }
  const missing = files.length === 0 && params.get('shared') !== '0';
  params.delete('shared');
  const rest = params.toString();
  window.history.replaceState(null, '', `${window.location.pathname}${rest ? `?${rest}` : ''}`);
  return { files, text, missing };
}

/** Two photos both called image.jpg must stay two files: "image (2).jpg". */
function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) {
    const dot = name.lastIndexOf('.');
    candidate = dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
  }
  taken.add(candidate);
  return candidate;
}
