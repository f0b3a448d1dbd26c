import 'server-only';
import { batchOfKey, batchPrefixes, compressedKey } from '../storage/keys';
import { parseEncodings } from './compression';

/**
 * What to delete once some objects lost their last file row: whole upload batches when no
 * file of the project points into them any more (one prefix each, with the compressed copies),
 * else the single objects and their copies.
 */
export function releasableKeys(slug: string, orphans: { storageKey: string; encodings: string }[], batchesInUse: Set<string>): string[] {
  const out = new Set<string>();
  for (const o of orphans) {
    const batch = batchOfKey(o.storageKey);
    if (!batchesInUse.has(batch)) {
      for (const p of batchPrefixes(slug, batch)) out.add(p);
      continue;
    }
    out.add(o.storageKey);
    for (const e of parseEncodings(o.encodings)) out.add(compressedKey(o.storageKey, e.encoding));
  }
  return [...out];
}
