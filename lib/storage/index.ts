import 'server-only';
import path from 'node:path';
import type { Env } from '../env';
import { createFsStorage } from './fs';
import type { StorageDriver } from './types';

/** The AWS SDK is loaded only when the store is S3: an fs server never holds it in memory. */
export async function createStorage(env: Env): Promise<StorageDriver> {
  if (env.storage === 's3' && env.s3) return (await import('./s3')).createS3Storage(env.s3);
  return createFsStorage(path.join(env.dataDir, 'store'));
}

export * from './types';
