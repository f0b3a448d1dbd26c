import 'server-only';
import { recordPartCrcs, type PartCrcRow } from '@/db/queries/uploads';
import { perRuntime, type Runtime } from '../runtime';

/**
 * What a proxy part needs of its pending upload, kept in memory from init: none of it changes
 * while the upload is pending (the group, owner, store key and upload id, the part count, the
 * declared size and part size) but the store's upload id, which the first part sets once. A part of a 500-file share is then one database round trip (its
 * session) instead of three. Whether the upload is still pending is the store's to say: a part
 * of an aborted or completed upload finds no upload there (404), on every instance.
 */
export interface PendingPart {
  id: string;
  groupId: string;
  /** null: the Admin Token's own upload. */
  ownerId: string | null;
  /** The client's handle (the protocol's uploadId). */
  uploadId: string;
  /** The store's multi-part upload: null until the file's first part starts it. */
  storeUploadId: string | null;
  storageKey: string;
  contentType: string;
  partCount: number;
  declaredSize: number;
  partSize: number;
}

/** Enough for every member's pending files at their cap; the oldest go first past it. */
const MAX_KNOWN = 20_000;
/** Each service's, shared by its listener and its Next route handlers (init runs in Next, the chunk route in the listener). */
const known = perRuntime(() => new Map<string, PendingPart>());
const keyOf = (uploadId: string, storageKey: string) => `${uploadId}\u0000${storageKey}`;

export function rememberPendingParts(rt: Runtime, parts: PendingPart[]): void {
  const map = known(rt);
  for (const p of parts) {
    if (map.size >= MAX_KNOWN) map.delete(map.keys().next().value!);
    map.set(keyOf(p.uploadId, p.storageKey), p);
  }
}

export const knownPendingPart = (rt: Runtime, uploadId: string, storageKey: string): PendingPart | undefined => known(rt).get(keyOf(uploadId, storageKey));

/** The group was completed or discarded here: its entries are of no more use. */
export function forgetPendingParts(rt: Runtime, groupId: string): void {
  const map = known(rt);
  for (const [k, p] of map) if (p.groupId === groupId) map.delete(k);
}

/**
 * Part CRC-32s are written behind the reply, many to a statement: a part's answer waits for its
 * bytes, not for this row. complete() waits for the rows of this service first (flushPartCrcs);
 * a row lost to a crash, or still on its way from another instance, only means the file's
 * CRC-32 is computed from its bytes the first time a ZIP needs it (share_items.crc32 is null).
 */
interface CrcQueue {
  rows: PartCrcRow[];
  flushing: Promise<void> | null;
  /** Ends the gathering wait at once: a complete wants the rows now. */
  wake: (() => void) | null;
}
const crcQueue = perRuntime((): CrcQueue => ({ rows: [], flushing: null, wake: null }));

export function recordPartCrcSoon(rt: Runtime, row: PartCrcRow): void {
  const q = crcQueue(rt);
  q.rows.push(row);
  q.flushing ??= drain(rt, q);
}

/**
 * Rows wait this long for company, unless a complete asks for them first: a 500-file share
 * writes a few statements, not 500 commits (at 25 ms, parts a millisecond apart made twenty).
 */
const GATHER_MS = 250;

async function drain(rt: Runtime, q: CrcQueue): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => q.wake?.(), GATHER_MS).unref();
    q.wake = () => {
      clearTimeout(timer);
      q.wake = null;
      resolve();
    };
  });
  try {
    while (q.rows.length > 0) {
      const batch = q.rows.splice(0, 1000);
      await recordPartCrcs(rt.db, batch).catch((e) => console.error('[htmls] recording part CRCs failed (their files get theirs when first zipped):', (e as Error).message));
    }
  } finally {
    q.flushing = null;
  }
}

/** Resolves once every CRC row queued so far is written (or given up). */
export async function flushPartCrcs(rt: Runtime): Promise<void> {
  const q = crcQueue(rt);
  while (q.flushing) {
    q.wake?.();
    await q.flushing;
  }
}
