import 'server-only';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../env';
import { StorageInvalidPartError, StorageNotFoundError, StorageUnavailableError } from './types';

// The S3 client the store uses, and how its failures become the driver's error kinds
// (lib/storage/s3.ts is the driver itself).

export function createS3Client(s: S3Settings): S3Client {
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
      httpAgent: new HttpAgent({ keepAlive: true, maxSockets: 256 }),
      httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets: 256 }),
      connectionTimeout: 5_000,
    },
  });
}

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
