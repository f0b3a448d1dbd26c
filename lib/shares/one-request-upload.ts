import 'server-only';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { findShare, findShareGroup } from '@/db/queries/shares';
import { reservePendingGroup } from '@/db/queries/uploads';
import type { ShareGroupRow, shareItems } from '@/db/schema';
import { randomId } from '../auth/crypto';
import { limitPasswordSetting, setterKey } from '../auth/password-setting';
import { hashPassword } from '../auth/passwords';
import { isAdmin, ownerIdOf, type Principal } from '../auth/principal';
import { MAX_SHARE_BYTES, MAX_SHARE_FILES, type OneRequestOptions } from '../contract/shares';
import { AppError, notFound } from '../errors';
import { contentTypeFor } from '../mime';
import { pathKey, sanitizeRelativePath } from '../paths/relative-path';
import type { Runtime } from '../runtime';
import { sharedFileKey, sharedGroupPrefix } from '../storage/keys';
import { discardGroup } from './abort-upload';
import { publishGroup } from './publish-group';
import { checkPendingCaps, checkQuota, MIN_RESERVATION } from './start-uploads';
import { toShareDto, type ShareDto } from './share-dto';

/** S3 takes at most 5 GiB in one part. */
const MAX_PART = 5 * 1024 ** 3;
/**
 * Part size for a body of unknown length (a multipart file): gathered in memory before its PUT,
 * so this bounds memory (two parts per upload: one gathering, one in flight). S3's minimum part
 * is 5 MiB, and 10,000 parts of 8 MiB exceed the 50 GB share limit.
 */
const GATHERED_PART = 8 * 1024 * 1024;

type Item = Omit<typeof shareItems.$inferInsert, 'groupId'>;

/**
 * A share made in one request (PUT /api/shares/file/<name>, POST /api/shares/files): the bytes
 * go into the store through the same multi-part uploads as the protocol's parts, with no
 * temporary copy. The group is reserved against the quota from Content-Length before a byte is
 * stored, every stored byte is counted against that reservation, and the share is published
 * online in one transaction at the end. discard() — on any failure or a cut connection — removes
 * the group, its objects and unfinished uploads, and so its reservation.
 */
export class OneRequestShare {
  private group: ShareGroupRow | null = null;
  private readonly items: Item[] = [];
  private readonly paths = new Set<string>();
  private stored = 0;
  private published = false;
  /** The body being stored, destroyed when the upload fails so its writer gives up. */
  active: Readable | undefined;

  constructor(
    private readonly rt: Runtime,
    private readonly principal: Principal,
    /** Content-Length of the request: the most this share can hold. */
    private readonly declaredBytes: number,
  ) {}

  /** Reserves the declared bytes under the owner's row lock (quota and pending caps checked). */
  async begin(settings: OneRequestOptions): Promise<void> {
    if (this.declaredBytes > MAX_SHARE_BYTES) throw new AppError('too_large', 'A share holds at most 50 GB');
    const ownerId = ownerIdOf(this.principal);
    const reserve = Math.max(this.declaredBytes, MIN_RESERVATION);
    // `?password=` and the password field cost a hash as every other password a member sets
    // (issue 39, item 2): counted first.
    if (settings.password) await limitPasswordSetting(this.rt, this.principal);
    const group = {
      id: randomId(16),
      userId: ownerId,
      note: settings.note ?? '',
      passwordHash: settings.password ? await hashPassword(settings.password, setterKey(this.principal)) : null,
      expiresAt: settings.expires_at ? new Date(settings.expires_at) : null,
      status: 'offline' as const,
      uploadState: 'pending' as const,
      uploadMode: 'proxy' as const,
      reservedBytes: reserve,
      maxDownloads: settings.max_downloads ?? null,
    };
    await reservePendingGroup(
      this.rt.db,
      group,
      ownerId === null
        ? null
        : {
            id: ownerId,
            check: (owner, held) => {
              if (!owner || !held) throw new AppError('unauthenticated', 'Sign in to continue');
              checkPendingCaps(this.rt, held, 1);
              if (!isAdmin(this.principal)) checkQuota(Number(owner.quotaBytes), Number(owner.usedBytes), held, reserve);
            },
          },
    );
    this.group = await findShareGroup(this.rt.db, group.id);
  }

  /** Streams one file into the store; `size` when the request says it (a raw body), else null. */
  async add(name: string, body: Readable, size: number | null): Promise<void> {
    const group = this.group;
    if (!group) throw new Error('begin() first');
    if (this.items.length >= MAX_SHARE_FILES) throw new AppError('too_many_files', `A share holds at most ${MAX_SHARE_FILES} files`);
    const relativePath = sanitizeRelativePath(name);
    const key = pathKey(relativePath);
    if (this.paths.has(key)) throw new AppError('duplicate_path', `Two files are named ${JSON.stringify(relativePath)}`);
    this.paths.add(key);
    const storageKey = sharedFileKey(group.id, relativePath);
    const contentType = contentTypeFor(relativePath);
    // A body of known length that fits one part streams straight from the socket, as a
    // protocol part does; anything else is cut into gathered parts.
    const whole = size !== null && (this.rt.storage.kind === 'fs' || size <= MAX_PART);
    const partSize = whole ? Math.max(size!, 1) : size === null ? GATHERED_PART : Math.max(GATHERED_PART, Math.ceil(size / 10_000));
    const uploadId = await this.rt.storage.createMultipart(storageKey, { contentType, partSize });
    this.active = body;
    let crc = 0;
    const parts: { partNumber: number; etag: string; size: number }[] = [];
    if (whole) {
      this.count(size!);
      const { etag } = await this.rt.storage.uploadPart(storageKey, uploadId, 1, body, size!, (chunk) => {
        crc = crc32(chunk, crc);
      });
      parts.push({ partNumber: 1, etag, size: size! });
    } else {
      await gatherParts(body, partSize, (chunk) => {
        this.count(chunk.length);
        crc = crc32(chunk, crc);
      }, async (chunks, bytes, partNumber) => {
        const { etag } = await this.rt.storage.uploadPart(storageKey, uploadId, partNumber, Readable.from(chunks, { objectMode: false }), bytes);
        parts.push({ partNumber, etag, size: bytes });
      });
      if (size !== null && parts.reduce((n, p) => n + p.size, 0) !== size) throw new AppError('invalid_request', 'The body is shorter than its Content-Length');
    }
    this.active = undefined;
    parts.sort((a, b) => a.partNumber - b.partNumber);
    const object = await this.rt.storage.completeMultipart(storageKey, uploadId, parts);
    this.items.push({ relativePath, pathKey: key, storageKey, size: object.size, contentType, etag: object.etag, crc32: crc });
  }

  /** The bytes on the wire are checked against the reservation as they arrive, not only the header. */
  private count(bytes: number): void {
    this.stored += bytes;
    if (this.stored > Math.max(this.declaredBytes, MIN_RESERVATION)) throw new AppError('quota_exceeded', 'More bytes arrived than the request announced');
  }

  get fileCount(): number {
    return this.items.length;
  }

  /** pending → online with its items and the owner's usage, in one transaction. */
  async publish(): Promise<ShareDto> {
    const group = this.group;
    if (!group) throw new Error('begin() first');
    // Lost only to an abort of the group (POST /api/shares/upload/abort by its owner or the
    // administrator): discard() then removes what was stored after that abort's sweep.
    if (!(await publishGroup(this.rt.db, group, this.items))) throw notFound('This upload was cancelled');
    this.published = true;
    return toShareDto((await findShare(this.rt.db, group.id))!);
  }

  /**
   * Everything this upload stored or reserved goes (its objects through the deletion queue).
   * When an abort removed the group first, its sweep may have run before our last objects
   * appeared: the prefix is swept again here.
   */
  async discard(): Promise<void> {
    this.active?.destroy();
    if (!this.group || this.published) return;
    if (!(await discardGroup(this.rt, this.group.id))) await this.rt.storage.deletePrefix(sharedGroupPrefix(this.group.id));
  }
}

/**
 * Cuts a body of unknown length into parts of `partSize` bytes (the last shorter), each handed
 * to `upload` as the list of the body's own chunks (no copy) while the next part gathers: at
 * most two parts are held. `observe` sees every chunk in order.
 */
async function gatherParts(
  body: Readable,
  partSize: number,
  observe: (chunk: Buffer) => void,
  upload: (chunks: Buffer[], bytes: number, partNumber: number) => Promise<void>,
): Promise<void> {
  let chunks: Buffer[] = [];
  let bytes = 0;
  let partNumber = 0;
  let inflight: Promise<void> = Promise.resolve();
  let failed: unknown;
  const send = async () => {
    await inflight;
    const [c, b, n] = [chunks, bytes, ++partNumber];
    chunks = [];
    bytes = 0;
    inflight = upload(c, b, n);
    // A failed part stops the body at once; the loop below then rethrows its error.
    inflight.catch((e) => {
      failed = e;
      body.destroy(e instanceof Error ? e : new Error(String(e)));
    });
  };
  try {
    for await (const data of body) {
      let chunk = data as Buffer;
      observe(chunk);
      while (chunk.length > 0) {
        const take = Math.min(chunk.length, partSize - bytes);
        chunks.push(take === chunk.length ? chunk : chunk.subarray(0, take));
        bytes += take;
        chunk = chunk.subarray(take);
        if (bytes === partSize) await send();
      }
    }
  } catch (e) {
    // Nothing may still be writing when the caller discards the upload's objects.
    await inflight.catch(() => {});
    throw failed ?? e;
  }
  if (bytes > 0 || partNumber === 0) await send();
  await inflight;
}
