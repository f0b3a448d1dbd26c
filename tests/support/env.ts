/**
 * Which real services this run uses. `npm test` alone: PGlite and the fs store. With
 * DATABASE_URL: a fresh database on that PostgreSQL server. With S3_ENDPOINT and S3
 * credentials (STORAGE=s3): a fresh bucket on that S3 server.
 */
export interface S3TestSettings {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export function s3FromEnv(): S3TestSettings | null {
  const e = process.env;
  if (!e.S3_ENDPOINT || !e.S3_ACCESS_KEY_ID || !e.S3_SECRET_ACCESS_KEY) return null;
  return {
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION || 'us-east-1',
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE !== 'false',
  };
}

export const useS3Storage = () => process.env.STORAGE === 's3' && s3FromEnv() !== null;
export const postgresUrl = () => process.env.DATABASE_URL || null;
