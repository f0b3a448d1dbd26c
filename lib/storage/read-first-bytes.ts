import 'server-only';
import type { StorageDriver } from './types';

/**
 * The first `length` bytes of an object, in memory: a small file served from memory, or the
 * head of an HTML document scanned for where to insert. Only for reads that are small by
 * construction (callers bound `length`); everything else streams.
 */
export async function readFirstBytes(storage: StorageDriver, key: string, length: number): Promise<Buffer> {
  if (length === 0) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const c of (await storage.get(key, { start: 0, end: length - 1 })).body) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}
