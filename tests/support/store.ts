import path from 'node:path';
import { inject } from 'vitest';
import { createFsStorage } from '@/lib/storage/fs';
import { createS3Storage } from '@/lib/storage/s3';
import type { StorageDriver } from '@/lib/storage/types';

let store: StorageDriver | undefined;

/** The shared test server's object store, opened directly (fs directory or S3 bucket). */
export function testStore(): StorageDriver {
  store ??= openStore(inject('serverEnv'), inject('dataDir'));
  return store;
}

/** The object store a server with this env and data directory uses, opened directly. */
export function openStore(env: Record<string, string | undefined>, dataDir: string): StorageDriver {
  return env.STORAGE === 's3'
    ? createS3Storage({
        endpoint: env.S3_ENDPOINT,
        region: env.S3_REGION ?? 'us-east-1',
        bucket: env.S3_BUCKET!,
        accessKeyId: env.S3_ACCESS_KEY_ID,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY,
        forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
        setCors: false,
      })
    : createFsStorage(path.join(dataDir, 'store'));
}

export async function listStoredKeys(prefix: string): Promise<string[]> {
  return (await testStore().list(prefix)).map((o) => o.key);
}
