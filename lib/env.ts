import path from 'node:path';
import { z } from 'zod';
import { PROXY_PART_SIZE, S3_MIN_PART_SIZE } from './contract/shares';
import { LOCALES, matchLocale, type Locale } from './i18n/locales';

/** The bounds of PASSWORD_SCRYPT_LOG_N: 2^18 is 256 MiB a hash (lib/auth/passwords.ts runs two at a time). */
export const SCRYPT_LOG_N_MIN = 10;
export const SCRYPT_LOG_N_MAX = 18;

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
  /**
   * Bytes in each part of an upload through the server (proxy mode); only smaller than the
   * default: 5 MiB at least, S3's smallest multipart part (proxy mode on S3 sends each part to
   * the bucket's multipart upload). The test suite's files moving several parts use it.
   */
  PROXY_PART_SIZE: z.coerce.number().int().min(S3_MIN_PART_SIZE).max(PROXY_PART_SIZE).default(PROXY_PART_SIZE),
  /** proxy: share items are relayed by the server; redirect (S3): 302 to a presigned GET. */
  DOWNLOAD_MODE: z.enum(['proxy', 'redirect']).default('proxy'),
  /** redirect mode: a CDN or public bucket domain that replaces the presigned URL's origin. */
  DOWNLOAD_BASE_URL: origin('DOWNLOAD_BASE_URL'),
  /** redirect mode: how long a presigned download URL is valid. */
  DOWNLOAD_URL_SECONDS: z.coerce.number().int().min(10).max(7 * 86_400).default(900),
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
  /** Another host name routed to this port that alone serves /p/; `{slug}` gives each project its own. */
  HOSTED_ORIGIN: optionalString,
  /** The second listener's port (default PORT + 1); 0 turns it off (sandboxed /p/ on the main origin). */
  HOSTED_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * on: the hosted port is served by a worker thread of its own (lib/http/hosted-front.ts);
   * off: by the main thread, like every other request (one thread and its memory less).
   */
  HOSTED_FRONT: z.enum(['on', 'off']).default('on'),
  /** Deploys kept per project (the live one always is). */
  DEPLOY_HISTORY: z.coerce.number().int().min(1).max(1000).default(10),
  PUBLIC_URL: origin('PUBLIC_URL'),
  /** The language of a visitor whose browser asks for none of ours (docs/translations.md). */
  DEFAULT_LOCALE: optionalString.superRefine((v, ctx) => {
    if (v !== undefined && !matchLocale(v)) ctx.addIssue({ code: 'custom', message: `DEFAULT_LOCALE must be one of ${LOCALES.join(', ')}` });
  }),
  /**
   * For developers and translators: English pages in the pseudo-locale (accented, 40 % longer),
   * so a string that is not translated stands out (docs/translations.md). Never in production.
   */
  PSEUDO_LOCALE: bool.default(false),
  /** Hours after which an unfinished share upload is aborted by the janitor. */
  PENDING_UPLOAD_TTL_HOURS: z.coerce.number().positive().default(24),
  JANITOR_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(600),
  /** Unfinished share uploads (groups) a member may hold at once. */
  MAX_PENDING_UPLOADS: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Files in a member's unfinished share uploads, all groups together. */
  MAX_PENDING_FILES: z.coerce.number().int().min(1).max(10_000_000).default(2000),
  /** Open connections per client address (socket peer); 0: no cap. */
  MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).max(100_000).default(64),
  /** Open connections per listener; 0: no cap. */
  MAX_CONNECTIONS: z.coerce.number().int().min(0).max(1_000_000).default(2048),
  /** Seconds a request other than an upload may take, body included. */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * Seconds a response may make no progress (its client reads nothing) before its connection
   * and store read are dropped; an upload body must bring 64 KiB in each such span.
   */
  STALL_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /**
   * Seconds within which a response whose client takes none of it (bytes waiting, the socket
   * taking nothing across half of this) has its connection, store read and download slot dropped; shorter than the stall timeout
   * (a value at or above it leaves only the stall timeout). Decimals allowed (tests).
   */
  FIRST_BYTE_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
  /**
   * Downloads (share items, ZIPs, hosted files not served from memory) at once per client
   * address, both listeners together; more wait their turn (one per slot, up to
   * DOWNLOAD_SLOT_WAIT_SECONDS), then 429. 0: no cap.
   */
  MAX_DOWNLOADS_PER_IP: z.coerce.number().int().min(0).max(100_000).default(8),
  /**
   * Seconds a download waits for one of its address's slots before it is refused with 429: a place
   * in line holds one of the address's connections. Decimals allowed (tests).
   */
  DOWNLOAD_SLOT_WAIT_SECONDS: z.coerce.number().min(0.1).max(3600).default(10),
  /**
   * Pages and API calls per second per client address (a burst of ten times as many first),
   * counted in memory before any database work; past it 429 with Retry-After. Byte streams and
   * upload parts do not count (MAX_DOWNLOADS_PER_IP caps them). 0: no budget.
   */
  REQUESTS_PER_SECOND_PER_IP: z.coerce.number().int().min(0).max(1_000_000).default(30),
  /**
   * The same budget per principal — a session cookie or Bearer token, keyed by its hash before any
   * lookup — so one member flooding from many addresses spends one budget. 0: no budget.
   */
  REQUESTS_PER_SECOND_PER_PRINCIPAL: z.coerce.number().int().min(0).max(1_000_000).default(30),
  /** Who may make file requests (/r/<id> links that receive files): nobody, administrators, or every member. */
  FILE_REQUESTS: z.enum(['off', 'admin', 'members']).default('members'),
  /** Link previews of shares (OpenGraph tags, the card image, oEmbed): `off` gives every share the generic card. */
  LINK_PREVIEWS: z.enum(['on', 'off']).default('on'),
  /**
   * The ffmpeg that makes videos' poster frames (docs/link-previews.md): a path or a name in PATH;
   * `off`: none (the uploader's browser sends a frame instead).
   */
  FFMPEG_PATH: z.string().min(1).max(4096).default('ffmpeg'),
  /** The largest max_bytes a file request may have (bytes); unset: the service's 50 GB. */
  REQUEST_MAX_BYTES: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  /** Unfinished guest uploads one file request may hold at once. */
  REQUEST_MAX_PENDING: z.coerce.number().int().min(1).max(10_000).default(10),
  /**
   * Minutes a guest's upload to a file request may wait for its first part before the janitor
   * discards it and frees its reservation (an init that stores nothing holds nothing for long).
   */
  GUEST_IDLE_UPLOAD_MINUTES: z.coerce.number().positive().max(1440).default(10),
  /** Connections the S3 client keeps for downloads; uploads and metadata calls have their own. */
  S3_DOWNLOAD_SOCKETS: z.coerce.number().int().min(1).max(10_000).default(64),
  /** Webhooks may target loopback and private addresses (receivers on your LAN); link-local never. */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /** Seconds before a failed webhook delivery's first retry; later retries wait 60, 360, 1440, 3600 and 7200 times this. */
  WEBHOOK_RETRY_SECONDS: z.coerce.number().min(0.01).max(3600).default(5),
  /** Failed attempts in a row after which a webhook is paused until its owner re-enables it (as GitHub and Stripe do). */
  WEBHOOK_PAUSE_AFTER_FAILURES: z.coerce.number().int().min(1).max(100_000).default(20),
  /**
   * scrypt's cost for passwords hashed from now on, as log2 of N (r=8, p=1): 15 is 32 MiB and
   * ~100 ms a hash; each step up doubles both. A stored hash is checked at the cost it was made
   * with, and a member's is made again at this one when they sign in.
   */
  PASSWORD_SCRYPT_LOG_N: z.coerce.number().int().min(SCRYPT_LOG_N_MIN).max(SCRYPT_LOG_N_MAX).default(15),
  /** Days download activity and events are kept. */
  ACTIVITY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** E-mail notifications: smtp://user:pass@host:587 or smtps://…:465; unset: no e-mail. */
  SMTP_URL: optionalString.superRefine((v, ctx) => {
    if (v !== undefined && !/^smtps?:\/\//.test(v)) ctx.addIssue({ code: 'custom', message: 'SMTP_URL must start with smtp:// or smtps://' });
  }),
  /** The From of notification mails (default: htmls <htmls@PUBLIC_URL's host>). */
  SMTP_FROM: optionalString,
  /** Completed downloads of one share are mailed at most once per this many minutes (one digest). */
  NOTIFY_DIGEST_MINUTES: z.coerce.number().min(0).max(10_080).default(15),
  /**
   * Mails of every kind (confirmations included) to one address, and for one account, per hour;
   * past it notifications wait for the next hour (issue 39, item 3).
   */
  MAIL_MAX_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(20),
  /**
   * Who must have a second factor (TOTP) to sign in: `admins` (accounts with the admin role),
   * `all` members, or nobody (`off`). One who has none is led to enrol at the next sign-in. The
   * Admin Token is not an account: it stays the emergency credential.
   */
  REQUIRE_2FA: z.enum(['off', 'admins', 'all']).default('off'),
  /** OpenID Connect sign-in (issue 42): the provider's issuer URL; unset: no single sign-on. */
  OIDC_ISSUER: origin('OIDC_ISSUER'),
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  /** The button's text: "Sign in with <OIDC_NAME>". */
  OIDC_NAME: optionalString,
  /** Members of this group (the `groups` claim) get the admin role at each sign-in; leaving it removes it. */
  OIDC_ADMIN_GROUP: optionalString,
  /** on: a first sign-in with an identity linked to no account creates a member (default quota); off: only linked accounts. */
  OIDC_SIGNUP: z.enum(['on', 'off']).default('off'),
  /** Hide password sign-in in /files (the API keeps it, for the Admin Token and scripts). */
  OIDC_ONLY: bool.default(false),
  /** The scopes asked for; `groups` is added when OIDC_ADMIN_GROUP is set. */
  OIDC_SCOPES: z.string().default('openid profile email'),
});

export type S3Settings = {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  setCors: boolean;
  /** Sockets of the download pool (GetObject); absent: the default. */
  downloadSockets?: number;
  /** No progress on a download's store socket this long fails it (the stall timeout plus a margin). */
  stallTimeoutMs?: number;
};

/**
 * Where hosted sites live. port: a second listener of this process (the default); origin: a
 * host name routed to the main port; per-site: that host name with the project's slug in it;
 * sandbox: the explicit opt-out, /p/ on the main origin under a sandbox CSP.
 */
export type HostedSettings =
  | { mode: 'port'; port: number }
  | { mode: 'origin'; origin: string }
  | { mode: 'per-site'; origin: string }
  | { mode: 'sandbox' };

/** Single sign-on with one OpenID Connect provider (lib/auth/oidc/, its HTTP flow in lib/http/oidc/). */
export type OidcSettings = {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  name: string;
  adminGroup?: string;
  signup: boolean;
  only: boolean;
  scopes: string;
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
  hosted: HostedSettings;
  /** HOSTED_FRONT: the hosted port (mode port) in a worker thread of its own, or on the main thread. */
  hostedFront: boolean;
  deployHistory: number;
  publicUrl?: string;
  /** DEFAULT_LOCALE: the language when neither the picker's cookie nor Accept-Language names one of ours. */
  defaultLocale: Locale;
  /** PSEUDO_LOCALE: English is written in the pseudo-locale (lib/i18n/pseudo.ts). */
  pseudoLocale: boolean;
  pendingUploadTtlMs: number;
  janitorIntervalMs: number;
  uploadMode: 'auto' | 'proxy';
  /** PROXY_PART_SIZE: bytes in each part of an upload through the server. */
  proxyPartSize: number;
  /** Share item downloads: relayed, or redirected to the store (docs/downloads.md). */
  download: { mode: 'proxy' } | { mode: 'redirect'; baseUrl?: string; urlSeconds: number };
  maxPendingUploads: number;
  maxPendingFiles: number;
  maxConnectionsPerIp: number;
  maxConnections: number;
  requestTimeoutMs: number;
  stallTimeoutMs: number;
  firstByteTimeoutMs: number;
  maxDownloadsPerIp: number;
  downloadSlotWaitMs: number;
  requestsPerSecondPerIp: number;
  requestsPerSecondPerPrincipal: number;
  /** scrypt's log2 N for new password hashes (lib/auth/passwords.ts). */
  passwordScryptLogN: number;
  fileRequests: 'off' | 'admin' | 'members';
  linkPreviews: boolean;
  /** null: FFMPEG_PATH=off. */
  ffmpegPath: string | null;
  requestMaxBytes?: number;
  requestMaxPending: number;
  guestIdleUploadMs: number;
  events: { allowPrivate: boolean; retrySeconds: number; pauseAfterFailures: number; activityRetentionDays: number };
  mail: { smtpUrl?: string; from?: string; digestMinutes: number; maxPerHour: number };
  require2fa: 'off' | 'admins' | 'all';
  oidc?: OidcSettings;
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
      downloadSockets: v.S3_DOWNLOAD_SOCKETS,
      stallTimeoutMs: v.STALL_TIMEOUT_SECONDS * 1000,
    };
  }
  const hosted = hostedSettings(v, problems);
  if (v.DOWNLOAD_MODE === 'redirect' && storage !== 's3') problems.push('DOWNLOAD_MODE=redirect needs the S3 store (STORAGE=s3)');
  if (v.DOWNLOAD_BASE_URL && v.DOWNLOAD_MODE !== 'redirect') problems.push('DOWNLOAD_BASE_URL applies only with DOWNLOAD_MODE=redirect');
  const oidc = oidcSettings(v, problems);
  if (problems.length) throw new EnvError(problems);
  return {
    oidc,
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
    hosted: hosted!,
    hostedFront: v.HOSTED_FRONT === 'on',
    deployHistory: v.DEPLOY_HISTORY,
    publicUrl: v.PUBLIC_URL && new URL(v.PUBLIC_URL).origin,
    defaultLocale: matchLocale(v.DEFAULT_LOCALE) ?? 'en',
    pseudoLocale: v.PSEUDO_LOCALE,
    pendingUploadTtlMs: v.PENDING_UPLOAD_TTL_HOURS * 3_600_000,
    janitorIntervalMs: v.JANITOR_INTERVAL_SECONDS * 1000,
    uploadMode: v.UPLOAD_MODE,
    proxyPartSize: v.PROXY_PART_SIZE,
    download:
      v.DOWNLOAD_MODE === 'redirect'
        ? { mode: 'redirect', baseUrl: v.DOWNLOAD_BASE_URL?.replace(/\/+$/, ''), urlSeconds: v.DOWNLOAD_URL_SECONDS }
        : { mode: 'proxy' },
    maxPendingUploads: v.MAX_PENDING_UPLOADS,
    maxPendingFiles: v.MAX_PENDING_FILES,
    maxConnectionsPerIp: v.MAX_CONNECTIONS_PER_IP,
    maxConnections: v.MAX_CONNECTIONS,
    requestTimeoutMs: v.REQUEST_TIMEOUT_SECONDS * 1000,
    stallTimeoutMs: v.STALL_TIMEOUT_SECONDS * 1000,
    firstByteTimeoutMs: Math.round(v.FIRST_BYTE_TIMEOUT_SECONDS * 1000),
    maxDownloadsPerIp: v.MAX_DOWNLOADS_PER_IP,
    downloadSlotWaitMs: Math.round(v.DOWNLOAD_SLOT_WAIT_SECONDS * 1000),
    requestsPerSecondPerIp: v.REQUESTS_PER_SECOND_PER_IP,
    requestsPerSecondPerPrincipal: v.REQUESTS_PER_SECOND_PER_PRINCIPAL,
    passwordScryptLogN: v.PASSWORD_SCRYPT_LOG_N,
    fileRequests: v.FILE_REQUESTS,
    linkPreviews: v.LINK_PREVIEWS === 'on',
    ffmpegPath: v.FFMPEG_PATH === 'off' ? null : v.FFMPEG_PATH,
    requestMaxBytes: v.REQUEST_MAX_BYTES,
    requestMaxPending: v.REQUEST_MAX_PENDING,
    guestIdleUploadMs: v.GUEST_IDLE_UPLOAD_MINUTES * 60_000,
    require2fa: v.REQUIRE_2FA,
    mail: { smtpUrl: v.SMTP_URL, from: v.SMTP_FROM, digestMinutes: v.NOTIFY_DIGEST_MINUTES, maxPerHour: v.MAIL_MAX_PER_HOUR },
    events: { allowPrivate: v.WEBHOOK_ALLOW_PRIVATE, retrySeconds: v.WEBHOOK_RETRY_SECONDS, pauseAfterFailures: v.WEBHOOK_PAUSE_AFTER_FAILURES, activityRetentionDays: v.ACTIVITY_RETENTION_DAYS },
  };
}

function oidcSettings(v: z.infer<typeof schema>, problems: string[]): OidcSettings | undefined {
  if (!v.OIDC_ISSUER) {
    if (v.OIDC_CLIENT_ID || v.OIDC_ONLY) problems.push('OIDC_CLIENT_ID and OIDC_ONLY need OIDC_ISSUER (the provider\'s issuer URL)');
    return undefined;
  }
  if (!v.OIDC_CLIENT_ID) {
    problems.push('OIDC_ISSUER needs OIDC_CLIENT_ID (and OIDC_CLIENT_SECRET for a confidential client)');
    return undefined;
  }
  const scopes = new Set(v.OIDC_SCOPES.split(/\s+/).filter(Boolean));
  scopes.add('openid');
  if (v.OIDC_ADMIN_GROUP) scopes.add('groups');
  return {
    // The issuer as configured, without a trailing slash it may not have: discovery pins it exactly.
    issuer: v.OIDC_ISSUER,
    clientId: v.OIDC_CLIENT_ID,
    clientSecret: v.OIDC_CLIENT_SECRET,
    name: v.OIDC_NAME ?? 'single sign-on',
    adminGroup: v.OIDC_ADMIN_GROUP,
    signup: v.OIDC_SIGNUP === 'on',
    only: v.OIDC_ONLY,
    scopes: [...scopes].join(' '),
  };
}

const SLUG_MARK = 'htmls-slug-placeholder';

function hostedSettings(v: z.infer<typeof schema>, problems: string[]): HostedSettings | undefined {
  if (v.HOSTED_ORIGIN) {
    const raw = v.HOSTED_ORIGIN;
    const perSite = raw.includes('{slug}');
    let u: URL | undefined;
    try {
      u = new URL(raw.replaceAll('{slug}', SLUG_MARK));
    } catch {
      /* reported below */
    }
    const ok =
      u &&
      (u.protocol === 'http:' || u.protocol === 'https:') &&
      (u.pathname === '/' || u.pathname === '') &&
      !u.search &&
      (!perSite || (raw.split('{slug}').length === 2 && u.hostname.includes(SLUG_MARK)));
    if (!ok || !u) {
      problems.push('HOSTED_ORIGIN must be an origin such as https://usercontent.example.com, or https://{slug}.pages.example.com for one origin per project');
      return;
    }
    const origin = u.origin.replace(SLUG_MARK, '{slug}');
    return perSite ? { mode: 'per-site', origin } : { mode: 'origin', origin };
  }
  if (v.HOSTED_PORT === 0) return { mode: 'sandbox' };
  const behindTls = v.PUBLIC_URL?.startsWith('https:') || v.TRUST_PROXY > 0;
  // PORT=0 (a free port for each listener, as tests run it) is nothing a proxy could point at.
  if (v.HOSTED_PORT === undefined && behindTls && v.PORT !== 0) {
    // A redirect from https://example.com/p/… to a bare port the proxy does not serve leads nowhere.
    problems.push(
      'HOSTED_ORIGIN: behind a proxy (PUBLIC_URL is https or TRUST_PROXY is set) hosted sites need a host name of their own. ' +
        'Set HOSTED_ORIGIN=https://usercontent.example.com and route it to this port (Caddy: `usercontent.example.com { reverse_proxy 127.0.0.1:' +
        `${v.PORT} }\`), or HOSTED_PORT=<port> if the proxy serves that port too, or HOSTED_PORT=0 to serve /p/ sandboxed on the main origin (not recommended)`,
    );
    return;
  }
  const port = v.HOSTED_PORT ?? (v.PORT === 0 ? 0 : v.PORT + 1);
  if (port > 65535) {
    problems.push('HOSTED_PORT: PORT + 1 is past 65535; set HOSTED_PORT');
    return;
  }
  if (port !== 0 && port === v.PORT) {
    problems.push('HOSTED_PORT must differ from PORT');
    return;
  }
  return { mode: 'port', port };
}

const parsed: { env?: Env; current?: () => Env | undefined } = {};

/**
 * The settings of the service handling this request (lib/runtime.ts installs the lookup), else
 * the process's: its first service's, or process.env parsed once.
 */
export function getEnv(): Env {
  return parsed.current?.() ?? (parsed.env ??= parseEnv(process.env));
}

/** How getEnv() finds the settings of the service handling the request (lib/runtime.ts). */
export function resolveEnvWith(current: () => Env | undefined): void {
  parsed.current = current;
}

/**
 * The language settings (DEFAULT_LOCALE, PSEUDO_LOCALE) for the pages and mails that pass them
 * to lib/i18n/messages.ts; their defaults (English, no pseudo-locale) where the settings cannot
 * be read (a page before boot).
 */
export function localeSettings(): Pick<Env, 'defaultLocale' | 'pseudoLocale'> {
  try {
    const { defaultLocale, pseudoLocale } = getEnv();
    return { defaultLocale, pseudoLocale };
  } catch {
    return { defaultLocale: 'en', pseudoLocale: false };
  }
}

/**
 * The settings of the process's first service (server.ts's createService), in place of
 * process.env's: a test runs the service on settings of its own. Refused once other settings
 * were read: code that read them before the service started would be left on those.
 */
export function installEnv(env: Env): void {
  if (parsed.env && parsed.env !== env) throw new Error('the settings were read already: the first service of a process must start before anything reads them');
  parsed.env = env;
}

/** The first service has closed: the next one to start becomes the process's first. */
export function uninstallEnv(env: Env): void {
  if (parsed.env === env) parsed.env = undefined;
}
