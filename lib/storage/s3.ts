import 'server-only';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Upload } from '@aws-sdk/lib-storage';
import { mapLimit } from '../map-limit';
import { bodyGone, exactLength } from './exact-length';
import { call, createS3Clients, type S3Clients } from './s3-client';
import { probePresignedCopy } from './s3-copy-probe';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetBucketCorsCommand,
  PutBucketCorsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Settings } from '../env';
import {
  assertKey,
  StorageNotFoundError,
  StorageUnavailableError,
  type GetResult,
  type ObjectInfo,
  type PartInfo,
  type StorageDriver,
  type PresignedPart,
} from './types';

/** Store calls one deletion keeps in flight (aborts of a group's uploads); below the agent's sockets. */
const STORE_CALLS = 16;

export function createS3Storage(s: S3Settings, clients: S3Clients = createS3Clients(s)): StorageDriver {
  const client = clients.control;
  const Bucket = s.bucket;

  /**
   * S3 needs a length for PutObject. A stream of unknown length (a multipart form field) goes
   * through the SDK's own Upload (@aws-sdk/lib-storage): up to one 8 MiB piece is a plain PUT,
   * more become a multi-part upload, aborted if anything fails; one piece at a time is held.
   */
  async function putUnknownLength(key: string, body: Readable, contentType?: string): Promise<ObjectInfo> {
    const upload = new Upload({ client: clients.uploads, params: { Bucket, Key: key, Body: body, ContentType: contentType }, partSize: UNKNOWN_LENGTH_PIECE, queueSize: 1, leavePartsOnError: false });
    // A body that fails (a zip entry longer than its header said, a client gone) is the
    // caller's error, not the store's: it must not turn into a 502 storage_unavailable.
    let bodyError: unknown;
    body.once('error', (e) => (bodyError = e));
    try {
      await call(() => upload.done());
    } catch (e) {
      throw bodyError ?? e;
    }
    return (await driver.head(key))!;
  }

  /** One AbortMultipartUpload; an upload already gone is no error. */
  async function abortOnce(key: string, uploadId: string): Promise<void> {
    assertKey(key);
    try {
      await call(() => client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId })));
    } catch (e) {
      if (!(e instanceof StorageNotFoundError)) throw e;
    }
  }

  let corsCache: { at: number; rules: { origins: string[]; methods: string[]; expose: string[] }[] } | undefined;

  async function corsRules() {
    if (corsCache && Date.now() - corsCache.at < 60_000) return corsCache.rules;
    let rules: { origins: string[]; methods: string[]; expose: string[] }[] = [];
    try {
      const out = await client.send(new GetBucketCorsCommand({ Bucket }));
      rules = (out.CORSRules ?? []).map((r) => ({
        origins: r.AllowedOrigins ?? [],
        methods: (r.AllowedMethods ?? []).map((m) => m.toUpperCase()),
        expose: (r.ExposeHeaders ?? []).map((h) => h.toLowerCase()),
      }));
    } catch {
      rules = []; // no CORS configuration (or not allowed to read it): proxy mode
    }
    corsCache = { at: Date.now(), rules };
    return rules;
  }

  async function allowsBrowserUploads(origin: string): Promise<boolean> {
    const rules = await corsRules();
    return rules.some(
      (r) => r.methods.includes('PUT') && r.expose.includes('etag') && (r.origins.includes('*') || r.origins.includes(origin)),
    );
  }

  async function configureCors(origins: string[]): Promise<void> {
    await call(() =>
      client.send(
        new PutBucketCorsCommand({
          Bucket,
          CORSConfiguration: {
            CORSRules: [
              { AllowedOrigins: origins, AllowedMethods: ['PUT'], AllowedHeaders: ['*'], ExposeHeaders: ['ETag'], MaxAgeSeconds: 3600 },
            ],
          },
        }),
      ),
    );
    corsCache = undefined;
  }

  async function presignPart(key: string, uploadId: string, partNumber: number, size: number, expiresIn: number): Promise<PresignedPart> {
    assertKey(key);
    // Signing the length bounds what the holder may store; the copy probe covers stores
    // that also honour unsigned headers (radosgw copies even under a signed length of 0).
    const url = await getSignedUrl(
      client,
      new UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, ContentLength: size }),
      { expiresIn, signableHeaders: new Set(['content-length']) },
    );
    return { url, expiresAt: new Date(Date.now() + expiresIn * 1000) };
  }

  async function presignGet(key: string, opts: { contentDisposition: string; contentType: string; expiresInSeconds: number }): Promise<string> {
    assertKey(key);
    return getSignedUrl(
      client,
      new GetObjectCommand({ Bucket, Key: key, ResponseContentDisposition: opts.contentDisposition, ResponseContentType: opts.contentType }),
      { expiresIn: opts.expiresInSeconds },
    );
  }

  const driver: StorageDriver = {
    kind: 's3',
    capabilities: {
      pooledRange: null,
      temporaryFiles: null,
      // Part URLs for direct uploads only with the keys configured (as before: not on a role's).
      presignedParts: s.accessKeyId ? { part: presignPart, probeCopy: () => probePresignedCopy(driver, presignPart, Bucket) } : null,
      presignedGet: { get: presignGet },
      bucketCors: { allows: allowsBrowserUploads, configure: configureCors },
    },



    async put(key, body, opts) {
      assertKey(key);
      const size = opts?.size ?? (Buffer.isBuffer(body) ? body.length : undefined);
      if (size === undefined) return putUnknownLength(key, body as Readable, opts?.contentType);
      await call(() =>
        clients.uploads.send(
          new PutObjectCommand({ Bucket, Key: key, Body: body, ContentLength: size, ContentType: opts?.contentType }),
        ),
      );
      return (await driver.head(key))!;
    },

    async get(key, range) {
      assertKey(key);
      const out = await call(() =>
        clients.downloads.send(
          new GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        ),
      );
      const total = out.ContentRange ? Number(out.ContentRange.split('/')[1]) : Number(out.ContentLength ?? 0);
      const result: GetResult = {
        key,
        size: total,
        etag: out.ETag ?? '""',
        lastModified: out.LastModified ?? new Date(0),
        body: out.Body as Readable,
        range,
      };
      return result;
    },

    async head(key) {
      assertKey(key);
      try {
        const out = await call(() => client.send(new HeadObjectCommand({ Bucket, Key: key })));
        return {
          key,
          size: Number(out.ContentLength ?? 0),
          etag: out.ETag ?? '""',
          lastModified: out.LastModified ?? new Date(0),
        };
      } catch (e) {
        if (e instanceof StorageNotFoundError) return null;
        throw e;
      }
    },

    async delete(key) {
      assertKey(key);
      await call(() => client.send(new DeleteObjectCommand({ Bucket, Key: key })));
    },

    async deletePrefix(prefix) {
      // Abort first: a part landing during the sweep would otherwise outlive it. An abort can
      // race a part still being written, so repeat until no upload is left (AWS's advice).
      // Aborts run STORE_CALLS at a time (one after another, a 500-file group took 30 s), one
      // call each: the next round's listing is the check that abortMultipart() makes per upload.
      // The first listing of objects runs beside the first of uploads: when there is no upload
      // to abort, nothing under the prefix can still become an object, and that listing is all
      // there is to delete (two round trips a prefix fewer than listing again to confirm).
      let [uploads, objects] = await Promise.all([driver.listMultipartUploads(prefix), driver.list(prefix)]);
      const quiet = uploads.length === 0;
      for (let round = 0; round < 5 && uploads.length > 0; round++) {
        await mapLimit(uploads, STORE_CALLS, (u) => abortOnce(u.key, u.uploadId));
        uploads = await driver.listMultipartUploads(prefix);
      }
      for (;;) {
        if (!quiet) objects = await driver.list(prefix);
        if (objects.length === 0) break;
        for (let i = 0; i < objects.length; i += 1000) {
          const batch = objects.slice(i, i + 1000);
          const out = await call(() =>
            client.send(
              new DeleteObjectsCommand({
                Bucket,
                Delete: { Objects: batch.map((o) => ({ Key: o.key })), Quiet: true },
              }),
            ),
          );
          // A key the store could not delete keeps the prefix scheduled: the janitor tries again.
          const failed = out.Errors ?? [];
          if (failed.length > 0) throw new Error(`${failed.length} of ${batch.length} objects under ${prefix} were not deleted (${failed[0].Code}: ${failed[0].Message})`);
        }
        if (quiet) break;
      }
    },

    async list(prefix) {
      const out: ObjectInfo[] = [];
      let token: string | undefined;
      do {
        const page = await call(() =>
          client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token })),
        );
        for (const o of page.Contents ?? []) {
          out.push({ key: o.Key!, size: Number(o.Size ?? 0), etag: o.ETag ?? '""', lastModified: o.LastModified ?? new Date(0) });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out;
    },

    async createMultipart(key, opts) {
      assertKey(key);
      const out = await call(() =>
        client.send(new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: opts?.contentType })),
      );
      return out.UploadId!;
    },

    async uploadPart(key, uploadId, partNumber, body, size, observe) {
      assertKey(key);
      const gone = bodyGone(body);
      if (gone) throw gone;
      const checked = body.pipe(exactLength(size, observe));
      body.on('error', (e) => checked.destroy(e));
      // A failing body does not end the SDK's request by itself (pipe() drops errors): abort it.
      const abort = new AbortController();
      let bodyError: Error | undefined;
      checked.on('error', (e) => {
        bodyError = e;
        abort.abort();
      });
      try {
        const out = await call(() =>
          clients.uploads.send(
            new UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body: checked, ContentLength: size }),
            { abortSignal: abort.signal },
          ),
        );
        return { etag: out.ETag ?? '""' };
      } catch (e) {
        // The store's failure is only the echo of a body that ended early: report the cause.
        throw bodyError ?? e;
      }
    },




    async listParts(key, uploadId) {
      assertKey(key);
      const parts: PartInfo[] = [];
      let marker: string | undefined;
      do {
        const page = await call(() =>
          client.send(new ListPartsCommand({ Bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker })),
        );
        for (const p of page.Parts ?? []) {
          parts.push({ partNumber: p.PartNumber!, size: Number(p.Size ?? 0), etag: p.ETag ?? '""' });
        }
        marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
      } while (marker);
      return parts.sort((a, b) => a.partNumber - b.partNumber);
    },

    async completeMultipart(key, uploadId, parts) {
      assertKey(key);
      // The SDK raises an error that S3 reports inside a 200 response; it must not be swallowed.
      const out = await call(() =>
        client.send(
          new CompleteMultipartUploadCommand({
            Bucket,
            Key: key,
            UploadId: uploadId,
            MultipartUpload: {
              Parts: [...parts].sort((a, b) => a.partNumber - b.partNumber).map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })),
            },
          }),
        ),
      );
      const known = completedInfo(key, out.ETag, parts);
      if (known) return known;
      // radosgw answers with an empty ETag and no size: read the object's own.
      const head = await driver.head(key);
      if (!head) throw new StorageUnavailableError('completed object is not readable');
      return head;
    },

    async abortMultipart(key, uploadId) {
      assertKey(key);
      // AbortMultipartUpload may leave parts that were still arriving; repeat until none are left.
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          await call(() => client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId })));
        } catch (e) {
          if (e instanceof StorageNotFoundError) return;
          throw e;
        }
        try {
          if ((await driver.listParts(key, uploadId)).length === 0) return;
        } catch (e) {
          if (e instanceof StorageNotFoundError) return;
          throw e;
        }
      }
    },

    async listMultipartUploads(prefix) {
      const out: { key: string; uploadId: string }[] = [];
      let keyMarker: string | undefined;
      let uploadIdMarker: string | undefined;
      do {
        const page = await call(() =>
          client.send(
            new ListMultipartUploadsCommand({ Bucket, Prefix: prefix, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
          ),
        );
        for (const u of page.Uploads ?? []) out.push({ key: u.Key!, uploadId: u.UploadId! });
        keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
        uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
      } while (keyMarker);
      return out;
    },

    close() {
      for (const c of Object.values(clients)) c.destroy();
    },
  };
  return driver;
}

const UNKNOWN_LENGTH_PIECE = 8 * 1024 * 1024;

/**
 * The completed object's size and ETag without a HEAD, when every part's size and MD5 ETag are
 * known: the ETag S3 gives a multi-part object is the MD5 of the parts' MD5s, a dash and their
 * count (radosgw returns none from Complete, so a 500-file share would cost 500 HEADs).
 */
function completedInfo(key: string, etag: string | undefined, parts: { etag: string; size?: number }[]): ObjectInfo | null {
  if (!parts.every((p) => p.size !== undefined && /^"?[0-9a-f]{32}"?$/.test(p.etag))) return null;
  const size = parts.reduce((n, p) => n + p.size!, 0);
  const own = etag ? etag : `"${createHash('md5').update(Buffer.concat(parts.map((p) => Buffer.from(p.etag.replaceAll('"', ''), 'hex')))).digest('hex')}-${parts.length}"`;
  return { key, size, etag: own, lastModified: new Date() };
}
