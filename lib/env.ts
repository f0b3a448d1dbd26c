import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const origin = (name: string) =>
  optionalString.superRefine((v, ctx) => {
    if (v === undefined) return;
    try {
      const u = new URL(v);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    } catch {
      ctx.addIssue({ code: 'custom', message: `${name} must be an http(s) URL such as https://files.example.com` });
    }
  });

const schema = z.object({
  NODE_ENV: optionalString,
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString.superRefine((v, ctx) => {
    if (v !== undefined && !/^postgres(ql)?:\/\//.test(v)) {
      ctx.addIssue({ code: 'custom', message: 'DATABASE_URL must start with postgres:// or postgresql://' });
    }
  }),
  MIGRATE_ON_START: bool.default(true),
  STORAGE: z.enum(['fs', 's3']).optional(),
  S3_ENDPOINT: origin('S3_ENDPOINT'),
  S3_REGION: optionalString,
  S3_BUCKET: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: bool.default(false),
  /** Set the bucket's CORS rule for PUBLIC_URL at boot, so browsers may PUT parts directly. */
  S3_SET_CORS: bool.default(false),
  /** auto: direct-to-S3 parts when the bucket's CORS allows it; proxy: always through the server. */
  UPLOAD_MODE: z.enum(['auto', 'proxy']).default('auto'),
  R2_ACCOUNT_ID: optionalString,
  R2_ACCESS_KEY_ID: optionalString,
  R2_SECRET_ACCESS_KEY: optionalString,
  R2_BUCKET_NAME: optionalString,
  ADMIN_TOKEN: optionalString,
  SERVER_SECRET: optionalString.superRefine((v, ctx) => {
    if (v !== undefined && v.length < 32) {
      ctx.addIssue({ code: 'custom', message: 'SERVER_SECRET must be at least 32 characters' });
    }
  }),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '' || v === 'false' || v === '0') return 0;
      if (v === 'true') return 1;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 10) {
        ctx.addIssue({ code: 'custom', message: 'TRUST_PROXY must be true, false or a number of proxy hops (1-10)' });
        return z.NEVER;
      }
      return n;
    }),
  HOSTED_ORIGIN: origin('HOSTED_ORIGIN'),
  PUBLIC_URL: origin('PUBLIC_URL'),
  /** Hours after which an unfinished share upload is aborted by the janitor. */
  PENDING_UPLOAD_TTL_HOURS: z.coerce.number().positive().default(24),
  JANITOR_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(600),
});

export type S3Settings = {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  setCors: boolean;
};

export type Env = {
  production: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  migrateOnStart: boolean;
  storage: 'fs' | 's3';
  s3?: S3Settings;
  adminToken?: string;
  serverSecret?: string;
  trustProxy: number;
  hostedOrigin?: string;
  publicUrl?: string;
  pendingUploadTtlMs: number;
  janitorIntervalMs: number;
  uploadMode: 'auto' | 'proxy';
};

export class EnvError extends Error {
  constructor(public problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses and checks the settings; throws EnvError listing every problem at once. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const v = parsed.data;
  const problems: string[] = [];
  const r2 = [v.R2_ACCOUNT_ID, v.R2_ACCESS_KEY_ID, v.R2_SECRET_ACCESS_KEY, v.R2_BUCKET_NAME];
  const r2Given = r2.some(Boolean);
  if (r2Given && !r2.every(Boolean)) {
    problems.push('R2_ACCOUNT_ID, R2_ACCESS_KEY_ID, R2_SECRET_ACCESS_KEY and R2_BUCKET_NAME must be set together');
  }
  if (r2Given && v.S3_BUCKET && v.R2_BUCKET_NAME && v.S3_BUCKET !== v.R2_BUCKET_NAME) {
    problems.push(`R2_BUCKET_NAME (${v.R2_BUCKET_NAME}) must equal the bound bucket S3_BUCKET (${v.S3_BUCKET})`);
  }
  const storage = v.STORAGE ?? (v.S3_BUCKET || r2Given ? 's3' : 'fs');
  let s3: S3Settings | undefined;
  if (storage === 's3') {
    const bucket = v.S3_BUCKET ?? v.R2_BUCKET_NAME;
    if (!bucket) problems.push('STORAGE=s3 needs S3_BUCKET (or the R2_* settings)');
    const accessKeyId = v.S3_ACCESS_KEY_ID ?? v.R2_ACCESS_KEY_ID;
    const secretAccessKey = v.S3_SECRET_ACCESS_KEY ?? v.R2_SECRET_ACCESS_KEY;
    if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
      problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
    }
    s3 = {
      endpoint: v.S3_ENDPOINT ?? (v.R2_ACCOUNT_ID ? `https://${v.R2_ACCOUNT_ID}.r2.cloudflarestorage.com` : undefined),
      region: v.S3_REGION ?? (v.R2_ACCOUNT_ID ? 'auto' : 'us-east-1'),
      bucket: bucket ?? '',
      accessKeyId,
      secretAccessKey,
      forcePathStyle: v.S3_FORCE_PATH_STYLE,
      setCors: v.S3_SET_CORS,
    };
  }
  if (problems.length) throw new EnvError(problems);
  return {
    production: v.NODE_ENV === 'production',
    port: v.PORT,
    host: v.HOST,
    dataDir: path.resolve(v.DATA_DIR),
    databaseUrl: v.DATABASE_URL,
    migrateOnStart: v.MIGRATE_ON_START,
    storage,
    s3,
    adminToken: v.ADMIN_TOKEN,
    serverSecret: v.SERVER_SECRET,
    trustProxy: v.TRUST_PROXY,
    hostedOrigin: v.HOSTED_ORIGIN && new URL(v.HOSTED_ORIGIN).origin,
    publicUrl: v.PUBLIC_URL && new URL(v.PUBLIC_URL).origin,
    pendingUploadTtlMs: v.PENDING_UPLOAD_TTL_HOURS * 3_600_000,
    janitorIntervalMs: v.JANITOR_INTERVAL_SECONDS * 1000,
    uploadMode: v.UPLOAD_MODE,
  };
}

const KEY = Symbol.for('htmls.env');
type Holder = { [KEY]?: Env };

/** The one reader of process.env: parsed once per process. */
export function getEnv(): Env {
  const g = globalThis as Holder;
  return (g[KEY] ??= parseEnv(process.env));
}
