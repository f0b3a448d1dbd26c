import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import postgres from 'postgres';
import { randomBytes } from 'node:crypto';
import { postgresUrl, s3FromEnv, type S3TestSettings } from './env';

/**
 * A new database on the configured PostgreSQL server, empty or a copy of `template` (a database
 * nobody is connected to); returns its URL.
 */
export async function createTestDatabase(label = 'htmls_test', template?: string): Promise<string> {
  const url = postgresUrl();
  if (!url) throw new Error('DATABASE_URL is not set');
  const name = `${label}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function dropTestDatabase(dbUrl: string): Promise<void> {
  const url = postgresUrl();
  if (!url) return;
  const name = new URL(dbUrl).pathname.slice(1);
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end();
  }
}

/** The S3Client settings for the test server: plain data, so a child process can take them as JSON. */
export function s3ClientConfig(s: S3TestSettings) {
  return {
    endpoint: s.endpoint,
    region: s.region,
    forcePathStyle: s.forcePathStyle,
    credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  } as const;
}

export const s3Client = (s: S3TestSettings): S3Client => new S3Client(s3ClientConfig(s));

/** A new, empty bucket on the configured S3 server; returns its name. */
export async function createTestBucket(label = 'htmls-test'): Promise<string> {
  const s = s3FromEnv();
  if (!s) throw new Error('S3 settings are not set');
  const name = `${label}-${Date.now()}-${randomBytes(3).toString('hex')}`;
  const client = s3Client(s);
  await client.send(new CreateBucketCommand({ Bucket: name }));
  client.destroy();
  return name;
}

/**
 * Server env for a fresh database and bucket as this run is configured; the database is a copy
 * of `template` when one is named.
 */
export async function freshServiceEnv(template?: string): Promise<Record<string, string | undefined>> {
  const env: Record<string, string | undefined> = {};
  if (postgresUrl()) env.DATABASE_URL = await createTestDatabase('htmls_test', template);
  const s3 = s3FromEnv();
  if (s3 && process.env.STORAGE === 's3') {
    Object.assign(env, {
      STORAGE: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: s3.region,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: String(s3.forcePathStyle),
      S3_BUCKET: await createTestBucket(),
      // The bucket gets a CORS rule at boot, so share uploads run in direct mode.
      S3_SET_CORS: 'true',
    });
  }
  return env;
}
