import path from 'node:path';
import { createFsStorage } from '@/lib/storage/fs';
import { createS3Storage } from '@/lib/storage/s3';
import type { StorageDriver } from '@/lib/storage/types';
import { dataDir, serverEnv } from './file-server';

let opened: { dir: string; store: StorageDriver } | undefined;

/** The file server's object store, opened directly (fs directory or S3 bucket). */
export function testStore(): StorageDriver {
  if (opened?.dir !== dataDir()) opened = { dir: dataDir(), store: openStore(serverEnv(), dataDir()) };
  return opened.store;
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
