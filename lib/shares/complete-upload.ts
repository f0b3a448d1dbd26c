import 'server-only';
import { findShare, findShareGroup, listPendingUploads } from '@/db/queries/shares';
import { partCrcsOf, publishAddition, type PartCrcRow } from '@/db/queries/uploads';
import type { PendingUploadRow, ShareGroupRow } from '@/db/schema';
import { isGuest, type Uploader } from './uploader';
import type { CompleteInput } from '../contract/shares';
import { AppError, notFound } from '../errors';
import { mapLimit } from '../map-limit';
import { pathKey } from '../paths/relative-path';
import { perRuntime, type Runtime } from '../runtime';
import { isStorageNotFound, type ObjectInfo, type PartInfo } from '../storage/types';
import { discardGroup } from './abort-upload';
import { publishGroup } from './publish-group';
import { checkAddition } from './add-to-share';
import { expectedPartSize } from './capabilities';
import { crc32OfParts } from '../zip/crc32-combine';
import { ownGroupOrThrow } from './own-group';
import { flushPartCrcs, forgetPendingParts } from './pending-parts';
import { toShareDto, type ShareDto } from './share-dto';
import { StorageInvalidPartError } from '../storage/errors';
import { wakePreviewWorker } from './previews/worker';

/** Store calls in flight at once: a 500-file share completes in a few seconds on S3. */
const STORE_CONCURRENCY = 32;
const alreadyCompleted = () => new AppError('already_completed', 'This upload is already complete');

/**
 * A file request's say over a guest's upload to it (lib/requests/complete-guest.ts): the shares
 * sit below the file requests, so the adapter hands them in. `check` refuses (and discards the
 * upload) by the request's limits, on the sizes before the merge and on the bytes after it;
 * `refusal` says why a publish the request refused was refused.
 */
export interface RequestChecks {
  check(rt: Runtime, group: ShareGroupRow, files: { pending: PendingUploadRow; size: number }[], stage: 'sizes' | 'bytes'): Promise<void>;
  refusal(rt: Runtime, requestId: string): Promise<AppError>;
}

/** The completes running in each service, by group. */
const runningOf = perRuntime(() => new Map<string, Promise<unknown>>());

/**
 * POST /api/shares/upload/complete: completes every file of the group from what the store
 * holds (ListParts), never from what the client says, then publishes the share in one
 * transaction whose conditional update decides the race with a second complete or an abort.
 */
export async function completeUpload(rt: Runtime, caller: Uploader, input: CompleteInput, requests: RequestChecks): Promise<ShareDto> {
  // Completes of one group in this service run one after the other: the later ones then find
  // it complete (409) instead of racing the first one's merges in the store, where each store
  // fails its own way (NoSuchUpload, a 500 from radosgw…). Across instances the conditional
  // publish below still decides.
  const running = runningOf(rt);
  const before = running.get(input.groupId);
  const mine = (async () => {
    await before?.catch(() => {});
    return completeOnce(rt, caller, input, requests);
  })();
  running.set(input.groupId, mine);
  try {
    const share = await mine;
    // A guest answers for their own upload only: not who asked for it (issue 39, Info).
    return isGuest(caller) ? { ...share, user_id: null, username: null } : share;
  } finally {
    if (running.get(input.groupId) === mine) running.delete(input.groupId);
  }
}

async function completeOnce(rt: Runtime, caller: Uploader, input: CompleteInput, requests: RequestChecks): Promise<ShareDto> {
  const group = await ownGroupOrThrow(rt, caller, input.groupId);
  if (group.uploadState === 'complete') throw alreadyCompleted();
  const pending = await listPendingUploads(rt.db, group.id);
  // A complete that won meanwhile deleted the pending rows: this one lost the race (409).
  if (pending.length === 0) throw await whyGone(rt, group.id);
  checkNamedParts(pending, input);

  let stored: { pending: PendingUploadRow; object: ObjectInfo; parts: PartInfo[] | null }[];
  try {
    // Every file is checked against the store first, so a missing part completes nothing.
    const checked = await mapLimit(pending, STORE_CONCURRENCY, (p) => storedState(rt, group, p));
    const bad = checked.findIndex((c) => c === 'size_mismatch');
    if (bad >= 0) {
      await discardGroup(rt, group.id);
      const p = pending[bad];
      throw new AppError('size_mismatch', `${p.relativePath} was declared as ${p.declaredSize} bytes but a different size arrived; the upload was cancelled`);
    }
    // A guest's upload to a file request: every limit again, on the sizes the store reports.
    if (group.requestId) await requests.check(rt, group, pending.map((p, i) => ({ pending: p, size: storedSize(checked[i] as PartInfo[] | ObjectInfo) })), 'sizes');
    stored = await mapLimit(pending, STORE_CONCURRENCY, async (p, i) => {
      const parts = checked[i] as PartInfo[] | ObjectInfo;
      const object = Array.isArray(parts)
        ? await rt.storage.completeMultipart(p.storageKey, p.storeUploadId!, parts.map((x) => ({ partNumber: x.partNumber, etag: x.etag, size: x.size })))
        : parts;
      return { pending: p, object, parts: Array.isArray(parts) ? parts : null };
    });
  } catch (e) {
    if (isStorageNotFound(e)) throw await whyGone(rt, group.id);
    if (e instanceof StorageInvalidPartError) {
      throw new AppError('upload_not_complete', 'A part changed while the upload was completing; send it again');
    }
    // A store refusing a merge whose upload an abort is removing under it answers in its own
    // way (radosgw: a 500 "completion already in progress"): when the group is gone, the abort
    // won and this complete is a 404 like any other that lost to it.
    if (!(e instanceof AppError) && !(await findShareGroup(rt.db, group.id))) throw notFound('This upload was cancelled');
    throw e;
  }

  // …and the types on the files' first bytes, now that they are whole objects.
  if (group.requestId) await requests.check(rt, group, stored.map((s) => ({ pending: s.pending, size: s.object.size })), 'bytes');
  // The CRC rows of parts this service took are written behind their replies: wait for them.
  await flushPartCrcs(rt);
  const crcs = await partCrcsOf(rt.db, pending.map((p) => p.id));
  const items = stored.map(({ pending: p, object, parts }) => ({
    relativePath: p.relativePath,
    pathKey: pathKey(p.relativePath),
    storageKey: p.storageKey,
    size: object.size,
    contentType: p.contentType,
    etag: object.etag,
    crc32: parts ? fileCrc(parts, crcs.get(p.id) ?? []) : null,
  }));
  if (group.addsTo) return completeAddition(rt, group, items);
  const won = await publishGroup(
    rt.db,
    group,
    items,
    // Received files stay private until their owner publishes them.
    group.requestId ? { status: 'offline', requestId: group.requestId } : {},
  );
  if (won === 'request_refused' || won === 'quota_refused') {
    await discardGroup(rt, group.id);
    if (won === 'quota_refused') {
      throw new AppError('quota_exceeded', 'The person who asked for these files has no room left for them: tell them, so they can free some space; the upload was cancelled');
    }
    throw await requests.refusal(rt, group.requestId!);
  }
  return afterPublish(rt, group.id, won, items, group.id);
}

/**
 * Files added to a published share join it in one transaction (guests see them all at once);
 * a limit the share reached meanwhile, or a path another addition took, refuses them and the
 * addition is discarded with its bytes. Answers the whole share.
 */
async function completeAddition(rt: Runtime, group: ShareGroupRow, items: Parameters<typeof publishAddition>[2]): Promise<ShareDto> {
  const added = items.reduce((n, it) => n + Number(it.size), 0);
  let won;
  try {
    won = await publishAddition(
      rt.db,
      group,
      items,
      (now) => checkAddition(now, items.length, added),
      () => notFound('The share these files were being added to was deleted'),
    );
  } catch (e) {
    // Refused: the addition goes with its bytes. Its share deleted meanwhile took the
    // addition's row too, and perhaps swept its prefix before these objects were merged.
    if (e instanceof AppError && !(await discardGroup(rt, group.id).catch(() => true))) {
      for (const it of items) await rt.storage.delete(it.storageKey).catch(() => {});
    }
    throw e;
  }
  return afterPublish(rt, group.id, won, items, group.addsTo!);
}

/**
 * The end of a complete: the share it made or grew (`shareId`), or, when the conditional publish
 * lost, why — another complete won (409), or an abort did (404), whose sweep may have run before
 * these objects appeared, so they are removed here.
 */
async function afterPublish(rt: Runtime, groupId: string, won: boolean, items: { storageKey: string }[], shareId: string): Promise<ShareDto> {
  if (!won) {
    const now = await findShareGroup(rt.db, groupId);
    if (now?.uploadState === 'complete') throw alreadyCompleted();
    for (const it of items) await rt.storage.delete(it.storageKey).catch(() => {});
    throw notFound('This upload was cancelled');
  }
  forgetPendingParts(rt, groupId);
  wakePreviewWorker();
  return toShareDto((await findShare(rt.db, shareId))!);
}

const storedSize = (c: PartInfo[] | ObjectInfo) => (Array.isArray(c) ? c.reduce((n, x) => n + x.size, 0) : c.size);

function checkNamedParts(pending: PendingUploadRow[], input: CompleteInput): void {
  const named = new Map<string, CompleteInput['files'][number]>();
  for (const f of input.files) {
    const key = `${f.uploadId}\u0000${f.storageKey}`;
    if (named.has(key)) throw new AppError('invalid_request', `${f.storageKey} is named twice`);
    named.set(key, f);
  }
  const byKey = new Set(pending.map((p) => `${p.uploadId}\u0000${p.storageKey}`));
  for (const key of named.keys()) if (!byKey.has(key)) throw notFound('No such pending upload in this share');
  for (const p of pending) {
    const f = named.get(`${p.uploadId}\u0000${p.storageKey}`);
    if (!f) throw new AppError('upload_not_complete', `${p.relativePath} is missing from the request`);
    const numbers = new Set(f.parts.map((x) => x.partNumber));
    if (f.parts.length !== p.partCount || numbers.size !== p.partCount || [...numbers].some((n) => n > p.partCount)) {
      throw new AppError('upload_not_complete', `${p.relativePath} needs exactly ${p.partCount} parts`);
    }
  }
}

/**
 * A store upload vanished while we completed it: an abort removed the group (404), or another
 * complete of the same group took it (409, whether or not that one has published yet).
 */
async function whyGone(rt: Runtime, groupId: string): Promise<AppError> {
  const now = await findShareGroup(rt.db, groupId);
  return now ? alreadyCompleted() : notFound('This upload was cancelled');
}

/**
 * What the store holds for one file: its parts, ready to merge, or the object itself when an
 * earlier attempt merged it and then failed on a later file.
 */
async function storedState(rt: Runtime, group: ShareGroupRow, p: PendingUploadRow): Promise<PartInfo[] | ObjectInfo | 'size_mismatch'> {
  const declared = Number(p.declaredSize);
  let parts;
  try {
    // No store upload yet: no part of this file ever arrived.
    if (!p.storeUploadId) throw new AppError('upload_not_complete', `${p.relativePath} has no uploaded parts`);
    parts = await rt.storage.listParts(p.storageKey, p.storeUploadId);
  } catch (e) {
    if (!isStorageNotFound(e)) throw e;
    const done = await rt.storage.head(p.storageKey);
    if (done) return done.size === declared ? done : 'size_mismatch';
    throw new AppError('upload_not_complete', `${p.relativePath} has no uploaded parts`);
  }
  const have = new Map(parts.map((x) => [x.partNumber, x]));
  for (let n = 1; n <= p.partCount; n++) {
    if (!have.has(n)) throw new AppError('upload_not_complete', `Part ${n} of ${p.relativePath} has not been uploaded`);
  }
  const mine = parts.filter((x) => x.partNumber <= p.partCount).sort((a, b) => a.partNumber - b.partNumber);
  const size = mine.reduce((n, x) => n + x.size, 0);
  const shapeOk = mine.every((x) => x.size === expectedPartSize(declared, group.partSize, x.partNumber));
  if (size !== declared || !shapeOk) return 'size_mismatch';
  return mine;
}

/**
 * The file's CRC-32 from its parts' recorded CRCs, only when every part the store merged is the
 * one that was hashed (same ETag and size); otherwise null, and the first ZIP download hashes it.
 */
function fileCrc(parts: PartInfo[], recorded: PartCrcRow[]): number | null {
  const byNumber = new Map(recorded.map((r) => [r.partNumber, r]));
  const unquote = (etag: string) => etag.replace(/^"|"$/g, '');
  const hashed = [];
  for (const part of parts) {
    const r = byNumber.get(part.partNumber);
    if (!r || unquote(r.etag) !== unquote(part.etag) || r.size !== part.size) return null;
    hashed.push({ crc32: r.crc32, size: r.size });
  }
  return hashed.length ? crc32OfParts(hashed) : null;
}
