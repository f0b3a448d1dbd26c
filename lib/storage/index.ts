import path from 'node:path';
import type { Env } from '../env';
import { createFsStorage } from './fs';
import { createS3Storage } from './s3';
import type { StorageDriver } from './types';

export function createStorage(env: Env): StorageDriver {
  if (env.storage === 's3' && env.s3) return createS3Storage(env.s3);
  return createFsStorage(path.join(env.dataDir, 'store'));
}

export * from './types';
