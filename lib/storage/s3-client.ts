import 'server-only';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../env';
import { StorageInvalidPartError, StorageNotFoundError, StorageUnavailableError } from './types';

// The S3 client the store uses, and how its failures become the driver's error kinds
// (lib/storage/s3.ts is the driver itself).

/**
 * Sockets per pool. Each kind of call has its own pool (issue 22, item 1): 128 downloads that
 * their clients never read held all 256 sockets of the one shared pool, and every upload,
 * metadata call and health check after them failed. Downloads get the fewest.
 */
const UPLOAD_SOCKETS = 128;
const CONTROL_SOCKETS = 64;
const DEFAULT_DOWNLOAD_SOCKETS = 64;

type Pool = 'downloads' | 'uploads' | 'control';

/**
 * One S3 client on its own agent. Timeouts: a connection must open in 5 s; a socket with no
 * traffic for `idleMs` fails its call (a stalled store must not hold a socket for ever); a
 * download's headers must come within 30 s (an upload's response follows its whole body, and a
 * metadata call such as a 10,000-part complete may legitimately take minutes: no such bound).
 */
export function createS3Client(s: S3Settings, pool: Pool = 'control'): S3Client {
  const sockets = pool === 'downloads' ? (s.downloadSockets ?? DEFAULT_DOWNLOAD_SOCKETS) : pool === 'uploads' ? UPLOAD_SOCKETS : CONTROL_SOCKETS;
  const stall = s.stallTimeoutMs ?? 60_000;
  // A download's store socket idles while its client reads nothing; the server's own stall
  // timeout cuts that client first. An upload's waits on its client's body (64 KiB per stall span).
  const idleMs = pool === 'control' ? 5 * 60_000 : Math.max(2 * stall, pool === 'downloads' ? 0 : 2 * 60_000);
  return new S3Client({
    region: s.region,
    endpoint: s.endpoint,
    forcePathStyle: s.forcePathStyle,
    credentials:
      s.accessKeyId && s.secretAccessKey ? { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } : undefined,
    // Newer SDKs add CRC checksums that radosgw, MinIO and R2 reject or mishandle.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: {
      httpAgent: new HttpAgent({ keepAlive: true, maxSockets: sockets }),
      httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets: sockets }),
      connectionTimeout: 5_000,
      socketTimeout: idleMs,
      ...(pool === 'downloads' ? { requestTimeout: 30_000, throwOnRequestTimeout: true } : {}),
    },
  });
}

export interface S3Clients {
  /** GetObject: what guests can make many of. */
  downloads: S3Client;
  /** PutObject, UploadPart: bodies that arrive at the client's pace. */
  uploads: S3Client;
  /** Everything else: heads, lists, multipart bookkeeping, deletes, health, presigning. */
  control: S3Client;
}

export const createS3Clients = (s: S3Settings): S3Clients => ({
  downloads: createS3Client(s, 'downloads'),
  uploads: createS3Client(s, 'uploads'),
  control: createS3Client(s, 'control'),
});

const NOT_FOUND = new Set(['NoSuchKey', 'NotFound', 'NoSuchUpload']);
const INVALID_PART = new Set(['InvalidPart', 'InvalidPartOrder', 'EntityTooSmall']);

/** Translates SDK failures into the driver's two error kinds. */
export async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const err = e as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number }; code?: string };
    const status = err.$metadata?.httpStatusCode;
    // A missing bucket is a 404 too, but of the store itself: nothing in it can be served.
    const noBucket = err.name === 'NoSuchBucket' || err.Code === 'NoSuchBucket';
    if (!noBucket && (NOT_FOUND.has(err.name ?? '') || NOT_FOUND.has(err.Code ?? '') || status === 404)) {
      throw new StorageNotFoundError(err.name ?? 'not found');
    }
    if (INVALID_PART.has(err.name ?? '') || INVALID_PART.has(err.Code ?? '')) throw new StorageInvalidPartError(err.name ?? 'invalid part');
    // Any other 400 is the caller's to handle; anything
    // else — network, 5xx, a missing bucket, refused credentials — means the store is unusable.
    if (status !== 400 || err.name === 'TimeoutError') {
      const wrapped = new StorageUnavailableError(`object store unavailable: ${err.name ?? err.code ?? 'error'}`);
      (wrapped as { cause?: unknown }).cause = e;
      throw wrapped;
    }
    throw e;
  }
}
