import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  customType,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const bytes = (name: string) => bigint(name, { mode: 'number' });
/** A set of byte ranges, e.g. `{[0,100),[200,300)}` (PostgreSQL 14+, PGlite). */
const int8multirange = customType<{ data: string; driverData: string }>({ dataType: () => 'int8multirange' });
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();
const updatedAt = () => ts('updated_at').notNull().defaultNow();

/** Key/value settings shared by every instance: admin token hash, server secret, default quota. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased: usernames compare case-insensitively. */
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    displayName: text('display_name').notNull().default(''),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    role: text('role', { enum: ['member', 'admin'] }).notNull().default('member'),
    status: text('status', { enum: ['active', 'disabled'] }).notNull().default('active'),
    quotaBytes: bytes('quota_bytes').notNull(),
    usedBytes: bytes('used_bytes').notNull().default(0),
    /** E-mail notifications (when SMTP_URL is set): completed downloads, request uploads, expiring shares. */
    notifyDownloads: boolean('notify_downloads').notNull().default(true),
    notifyUploads: boolean('notify_uploads').notNull().default(true),
    notifyExpiring: boolean('notify_expiring').notNull().default(true),
    /**
     * The member's language (issue 40): one of lib/i18n/locales.ts LOCALES, or null for the
     * browser's (the picker's cookie, else Accept-Language). Their pages and their mails use it.
     */
    locale: text('locale'),
    /**
     * Mail goes only to a confirmed address (issue 39, item 3): a change of `email` clears this
     * and mails a link whose token only the SHA-256 of is kept here, single-use, until it expires.
     */
    emailVerified: boolean('email_verified').notNull().default(false),
    emailTokenHash: text('email_token_hash'),
    emailTokenExpiresAt: ts('email_token_expires_at'),
    /**
     * TOTP (issue 42, item 3): the secret encrypted with a key from the server secret
     * (lib/auth/totp.ts), set at setup and active once `totp_enabled`; the last time step a code
     * was accepted for, so each code works once (a later step only).
     */
    totpSecret: text('totp_secret'),
    totpEnabled: boolean('totp_enabled').notNull().default(false),
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Keyset pages of GET /api/users: newest first, the id breaking ties. The trigram index
  // (pg_trgm) answers `q` (ILIKE '%…%') on usernames, for the users' and the shares' searches.
  (t) => [
    uniqueIndex('users_username_key').on(t.username),
    uniqueIndex('users_email_token_hash_key').on(t.emailTokenHash),
    index('users_created_at_id_idx').on(t.createdAt, t.id),
    index('users_username_trgm_idx').using('gin', t.username.op('gin_trgm_ops')),
  ],
);

/**
 * Member sessions and administrator sessions. Tokens are never stored, only their SHA-256.
 * An administrator session also records a tag of the admin credential it was opened with,
 * so a token change ends every one of them.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    kind: text('kind', { enum: ['member', 'admin'] }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    credentialTag: text('credential_tag'),
    expiresAt: ts('expires_at').notNull(),
    /** How it was signed in to (`password`, `password+totp`, `password+recovery`, `oidc`…), for Settings → Sessions. */
    method: text('method').notNull().default('password'),
    userAgent: text('user_agent').notNull().default(''),
    /** The client's network (IPv4 /24, IPv6 /64), never its full address; updated with last_used_at. */
    network: text('network').notNull().default(''),
    /** Written at most once a minute per session (lib/auth/session-use.ts). */
    lastUsedAt: ts('last_used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_user_id_idx').on(t.userId),
    index('sessions_expires_at_idx').on(t.expiresAt),
  ],
);

/** Ten single-use recovery codes per user with TOTP: only their SHA-256 is kept. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

/**
 * A sign-in that passed its first step (password, OpenID Connect) and waits for the second
 * (`required`) or for enrolment (`enroll`): 5 minutes, 5 tries. Only the token's SHA-256 is kept.
 */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['required', 'enroll'] }).notNull(),
    method: text('method').notNull(),
    tries: integer('tries').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sign_in_challenges_expires_at_idx').on(t.expiresAt)],
);

/**
 * Passkeys (WebAuthn discoverable credentials, issue 42 item 2): a member signs in with one
 * instead of a password, or passes the second factor with one. The credential ID and the COSE
 * public key are base64url; `counter` is the authenticator's signature counter (0 for those that
 * keep none), raised at each use so a cloned authenticator's older count is refused.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialId: text('credential_id').notNull(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    /** The transports the browser reported (`internal,hybrid`…), a hint for later requests. */
    transports: text('transports').notNull().default(''),
    name: text('name').notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    createdAt: createdAt(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [uniqueIndex('passkeys_credential_id_key').on(t.credentialId), index('passkeys_user_id_idx').on(t.userId)],
);

/**
 * WebAuthn challenges the server handed out (options), kept in the database so any instance can
 * check the answer: single use (deleted when an answer names it), 5 minutes. Only the SHA-256 of
 * the challenge is kept. `register` and `reauth` belong to a signed-in member (`user_id`);
 * `second_factor` also to a sign-in challenge (`sign_in_challenge_hash`); `login` to nobody yet.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challengeHash: text('challenge_hash').primaryKey(),
    purpose: text('purpose', { enum: ['register', 'login', 'second_factor', 'reauth'] }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    signInChallengeHash: text('sign_in_challenge_hash'),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webauthn_challenges_expires_at_idx').on(t.expiresAt)],
);

/**
 * `htmls login --sso` (issue 42): a hand-off from a browser where the member signed in (single
 * sign-on) to the CLI that asked for it. The CLI's polling secret and the code shown to compare
 * are stored hashed; approving binds it to the signed-in member, and the first poll after that
 * takes it (single use). Ten minutes.
 */
export const cliHandoffs = pgTable(
  'cli_handoffs',
  {
    deviceHash: text('device_hash').primaryKey(),
    userCodeHash: text('user_code_hash').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    approvedAt: ts('approved_at'),
    consumedAt: ts('consumed_at'),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('cli_handoffs_user_code_hash_key').on(t.userCodeHash), index('cli_handoffs_expires_at_idx').on(t.expiresAt)],
);

/**
 * OpenID Connect identities linked to accounts (issue 42): the provider's `iss` + `sub` name
 * one, never its e-mail (Pingvin X's CVE-2026-108157 linked by an unverified one). An identity
 * is linked to one account, and an account has at most one identity per provider.
 */
export const oidcIdentities = pgTable(
  'oidc_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    /** What the provider said at the last sign-in, shown in Settings only (never used to link). */
    email: text('email').notNull().default(''),
    createdAt: createdAt(),
    lastLoginAt: ts('last_login_at'),
  },
  (t) => [uniqueIndex('oidc_identities_issuer_subject_key').on(t.issuer, t.subject), uniqueIndex('oidc_identities_user_issuer_key').on(t.userId, t.issuer)],
);

/**
 * Personal access tokens (htmls_pat_…): only the SHA-256 of the secret is kept. A token's rights
 * are its scopes intersected with its owner's role at each request (lib/auth/scopes.ts). A null
 * user_id is a token made in an Admin Token session; its credential_tag ends it when the Admin
 * Token changes, as admin sessions end.
 */
export const accessTokens = pgTable(
  'access_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    prefix: text('prefix').notNull(),
    scopes: text('scopes').array().notNull(),
    credentialTag: text('credential_tag'),
    expiresAt: ts('expires_at'),
    /** Written at most once a minute per token (lib/auth/access-tokens.ts), not on every request. */
    lastUsedAt: ts('last_used_at'),
    lastUsedIp: text('last_used_ip'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('access_tokens_token_hash_key').on(t.tokenHash), index('access_tokens_user_created_idx').on(t.userId, t.createdAt, t.id)],
);

export const projects = pgTable(
  'projects',
  {
    slug: text('slug').primaryKey(),
    note: text('note').notNull().default(''),
    passwordHash: text('password_hash'),
    /** The deploy /p/<slug>/ serves. Switching it is how a deploy goes live, or rolls back. */
    activeDeployId: text('active_deploy_id'),
    /** Unknown paths without an extension serve the index file (single-page apps). */
    spa: boolean('spa').notNull().default(false),
    /** Serve paths with dot-segments (`.env`, `.git/`); `.well-known/` is always served. */
    allowDotfiles: boolean('allow_dotfiles').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Keyset pages of GET /api/files: newest first, the slug breaking ties.
  (t) => [index('projects_created_at_slug_idx').on(t.createdAt, t.slug)],
);

/**
 * Custom domains (API.md "Hosted projects"): a host name serves its project at its root. A
 * host name belongs to at most one project (the primary key); every change bumps the hosting
 * epoch, so each instance's host-name index (lib/hosting/domains.ts) follows within ~250 ms.
 */
export const projectDomains = pgTable(
  'project_domains',
  {
    /** Lower-case ASCII (punycode), without a port or a trailing dot. */
    host: text('host').primaryKey(),
    slug: text('slug')
      .notNull()
      .references(() => projects.slug, { onDelete: 'cascade', onUpdate: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('project_domains_slug_idx').on(t.slug)],
);

/**
 * One upload of a project: an immutable set of files. Objects are shared between deploys (an
 * append keeps the unchanged files' objects), so an object is deleted only when no file row
 * of any kept deploy points at it.
 */
export const deploys = pgTable(
  'deploys',
  {
    id: text('id').primaryKey(),
    slug: text('slug')
      .notNull()
      .references(() => projects.slug, { onDelete: 'cascade', onUpdate: 'cascade' }),
    /** "admin" for the Admin Token, else the administrator's username. */
    createdBy: text('created_by').notNull().default(''),
    fileCount: integer('file_count').notNull(),
    totalBytes: bytes('total_bytes').notNull(),
    /**
     * The deploy's `_redirects` and `_headers`, parsed and checked at upload (lib/hosting/site-rules.ts),
     * so a request never parses them: each null when the deploy has no such file.
     */
    rules: jsonb('rules').$type<{ redirects: unknown[] | null; headers: unknown[] | null }>(),
    createdAt: createdAt(),
  },
  (t) => [index('deploys_slug_created_at_idx').on(t.slug, t.createdAt)],
);

export const hostedFiles = pgTable(
  'hosted_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug')
      .notNull()
      .references(() => projects.slug, { onDelete: 'cascade', onUpdate: 'cascade' }),
    deployId: text('deploy_id')
      .notNull()
      .references(() => deploys.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    /** NFC + case-folded path: uniqueness inside a deploy is decided on this. */
    pathKey: text('path_key').notNull(),
    storageKey: text('storage_key').notNull(),
    size: bytes('size').notNull(),
    contentType: text('content_type').notNull(),
    etag: text('etag').notNull(),
    /** Compressed copies stored beside the object ("br,gzip"), made once at upload. */
    encodings: text('encodings').notNull().default(''),
    status: text('status', { enum: ['online', 'offline'] }).notNull().default('online'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('hosted_files_deploy_path_key').on(t.deployId, t.pathKey),
    index('hosted_files_storage_key_idx').on(t.storageKey),
    index('hosted_files_slug_idx').on(t.slug),
  ],
);

export const shareGroups = pgTable(
  'share_groups',
  {
    id: text('id').primaryKey(),
    /** Null for a share created with the Admin Token itself. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'restrict' }),
    note: text('note').notNull().default(''),
    passwordHash: text('password_hash'),
    expiresAt: ts('expires_at'),
    status: text('status', { enum: ['online', 'offline'] }).notNull().default('offline'),
    uploadState: text('upload_state', { enum: ['pending', 'complete'] }).notNull().default('pending'),
    /** Fixed at init: the upload mode and part size every part of this upload uses. */
    uploadMode: text('upload_mode', { enum: ['direct', 'proxy'] }).notNull().default('proxy'),
    partSize: integer('part_size').notNull().default(50331648),
    /** Bytes declared at init; counted against the quota while the upload is pending. */
    reservedBytes: bytes('reserved_bytes').notNull().default(0),
    /** Bytes actually stored, set at complete. */
    totalBytes: bytes('total_bytes').notNull().default(0),
    /** Completed guest downloads of any item or the ZIP (batched: lib/shares/count-downloads.ts). */
    downloadCount: bytes('download_count').notNull().default(0),
    /** Once downloadCount reaches this, guests get 410 download_limit; null = unlimited. */
    maxDownloads: integer('max_downloads'),
    /**
     * A guest's upload to a file request (lib/requests/): the request it answers (kept as a
     * plain id: deleting the request leaves its received shares and who sent them), and while
     * pending the SHA-256 of its upload token, which authorizes this group's upload calls only.
     */
    requestId: text('request_id'),
    uploadTokenHash: text('upload_token_hash'),
    receivedName: text('received_name'),
    receivedEmail: text('received_email'),
    receivedMessage: text('received_message'),
    /**
     * Files being added to a published share (API.md: init with `share_id`): this pending group
     * carries the upload, and its complete moves the files into the share named here, which
     * guests see all at once. Once complete the row stays (empty, never listed) so that a
     * repeated complete answers 409; the janitor drops it a day later.
     */
    addsTo: text('adds_to').references((): AnyPgColumn => shareGroups.id, { onDelete: 'cascade' }),
    /** The expires_at a share.expired event was written for (a later expiry gets its own). */
    expiredEventFor: ts('expired_event_for'),
    /** The expires_at a share.expiring notice (a day ahead) was written for. */
    expiringNoticeFor: ts('expiring_notice_for'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Keyset pages of GET /api/shares, newest first with the id breaking ties: one owner's, and everyone's.
    index('share_groups_user_id_created_at_id_idx').on(t.userId, t.createdAt, t.id),
    index('share_groups_created_at_id_idx').on(t.createdAt, t.id),
    index('share_groups_pending_idx').on(t.createdAt).where(sql`${t.uploadState} = 'pending'`),
    uniqueIndex('share_groups_upload_token_hash_key').on(t.uploadTokenHash),
    index('share_groups_request_id_idx').on(t.requestId),
    index('share_groups_adds_to_idx').on(t.addsTo).where(sql`${t.addsTo} is not null`),
    // `q` of the shares' lists (ILIKE '%…%' on the note and the id): without these a search
    // matching few shares read every share (issue 28).
    index('share_groups_note_trgm_idx').using('gin', t.note.op('gin_trgm_ops')),
    index('share_groups_id_trgm_idx').using('gin', t.id.op('gin_trgm_ops')),
  ],
);

/**
 * A file request: a link /r/<id> through which anyone holding it uploads files to its owner
 * (API.md "File requests"). Each completed guest upload becomes an offline share of the owner;
 * upload_count and received_bytes grow in the transaction that publishes it.
 */
export const fileRequests = pgTable(
  'file_requests',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    note: text('note').notNull().default(''),
    passwordHash: text('password_hash'),
    expiresAt: ts('expires_at'),
    status: text('status', { enum: ['open', 'closed'] }).notNull().default('open'),
    maxFiles: integer('max_files'),
    maxBytes: bytes('max_bytes'),
    maxUploads: integer('max_uploads'),
    requireName: boolean('require_name').notNull().default(false),
    /** MIME types (`video/*`, `application/pdf`) and extensions (`.pdf`); null: any. */
    allowedTypes: text('allowed_types').array(),
    uploadCount: integer('upload_count').notNull().default(0),
    receivedBytes: bytes('received_bytes').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('file_requests_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('file_requests_created_idx').on(t.createdAt, t.id),
    index('file_requests_note_trgm_idx').using('gin', t.note.op('gin_trgm_ops')),
    index('file_requests_id_trgm_idx').using('gin', t.id.op('gin_trgm_ops')),
  ],
);

export const shareItems = pgTable(
  'share_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    groupId: text('group_id')
      .notNull()
      .references(() => shareGroups.id, { onDelete: 'cascade' }),
    relativePath: text('relative_path').notNull(),
    /** NFC + case-folded path: uniqueness is decided on this. */
    pathKey: text('path_key').notNull(),
    storageKey: text('storage_key').notNull(),
    size: bytes('size').notNull(),
    contentType: text('content_type').notNull(),
    etag: text('etag').notNull(),
    /** Completed guest downloads of this item (a Range reaching the last byte counts once). */
    downloadCount: bytes('download_count').notNull().default(0),
    /**
     * CRC-32 of the object's bytes: combined from its parts' CRCs at complete when they went
     * through the server, else filled the first time the server reads it whole (a ZIP download).
     * The "Download all" ZIP needs it for data descriptors and its central directory.
     */
    crc32: bigint('crc32', { mode: 'number' }),
    /**
     * The item's derived picture (docs/link-previews.md): a video's poster frame or an image's
     * thumbnail, made once after complete by the preview worker (lib/shares/previews/worker.ts).
     * `pending`: not made yet (every new row; the worker claims it), `ready`: made (previewKey…),
     * `browser`: a video waiting for the uploader's browser to send a frame (no ffmpeg here),
     * `none`: nothing to make (not an image or a video, unreadable, too large).
     */
    previewState: text('preview_state').default('pending'),
    /** The derived object, under the share's prefix (lib/storage/keys.ts's derivedKey). */
    previewKey: text('preview_key'),
    previewWidth: integer('preview_width'),
    previewHeight: integer('preview_height'),
    /** A video's duration, when ffmpeg could read it. */
    durationMs: integer('duration_ms'),
    /** A worker's claim: another instance may take the item only after this time. */
    previewLeasedUntil: ts('preview_leased_until'),
    previewAttempts: integer('preview_attempts').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('share_items_group_path_key').on(t.groupId, t.pathKey),
    uniqueIndex('share_items_group_relative_path_key').on(t.groupId, t.relativePath),
    index('share_items_preview_pending').on(t.createdAt).where(sql`${t.previewState} = 'pending'`),
  ],
);

/**
 * A counted download of a share with a download limit (lib/shares/download-tickets.ts): one
 * download reserved for one client and one target (an item, or the ZIP of a folder), so the
 * same client's later Range requests (a resume, a player's seek) continue it without counting
 * again. `clientId` is the guest's `htmls_dl` cookie; `clientAddr` a hash of its address and
 * User-Agent, for clients without cookies (`curl -C -`), honoured only for ranges after byte 0.
 */
export const shareDownloadTickets = pgTable(
  'share_download_tickets',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => shareGroups.id, { onDelete: 'cascade' }),
    /** `item:<item id>` or `zip:<folder>` (`zip:` for the whole share). */
    target: text('target').notNull(),
    clientId: text('client_id').notNull(),
    clientAddr: text('client_addr').notNull(),
    expiresAt: ts('expires_at').notNull(),
    /**
     * Bytes this ticket has been charged for: responses are charged their length before the
     * first byte and refunded what they did not send, so one counted download yields about one
     * file's worth of bytes however it is resumed or passed on (lib/shares/download-tickets.ts).
     */
    bytesServed: bytes('bytes_served').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.target, t.clientId] }),
    index('share_download_tickets_addr_idx').on(t.groupId, t.target, t.clientAddr),
    index('share_download_tickets_expires_idx').on(t.expiresAt),
  ],
);

export const pendingUploads = pgTable(
  'pending_uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    groupId: text('group_id')
      .notNull()
      .references(() => shareGroups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The client's handle for this file's upload (the protocol's `uploadId`), made at init. */
    uploadId: text('upload_id').notNull(),
    /**
     * The store's multi-part upload, started by the file's first part (or first part URL), not
     * at init: an init that sends nothing holds no session in the store (issue 39). Null until
     * then; set once, by a conditional update, so racing first parts start exactly one.
     */
    storeUploadId: text('store_upload_id'),
    storageKey: text('storage_key').notNull(),
    partCount: integer('part_count').notNull(),
    clientPath: text('client_path').notNull(),
    relativePath: text('relative_path').notNull(),
    declaredSize: bytes('declared_size').notNull(),
    contentType: text('content_type').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pending_uploads_upload_id_key').on(t.uploadId, t.storageKey),
    index('pending_uploads_group_id_idx').on(t.groupId),
    index('pending_uploads_created_at_idx').on(t.createdAt),
  ],
);

/**
 * The CRC-32 of each part that went through the server (proxy uploads), hashed as it streamed.
 * Completing a file combines them into share_items.crc32 when every part's ETag still matches
 * what the store lists, so the "Download all" ZIP need not read the file for it.
 */
export const uploadPartCrcs = pgTable(
  'upload_part_crcs',
  {
    pendingUploadId: uuid('pending_upload_id')
      .notNull()
      .references(() => pendingUploads.id, { onDelete: 'cascade' }),
    partNumber: integer('part_number').notNull(),
    etag: text('etag').notNull(),
    size: bytes('size').notNull(),
    crc32: bigint('crc32', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.pendingUploadId, t.partNumber] })],
);

/**
 * Objects to delete, recorded in the same transaction that drops or replaces their records,
 * so a crash between the two never leaves bytes nobody knows about. A row with a future
 * not_before guards an upload in flight: it is deleted when the upload commits, and the
 * janitor sweeps the prefix if the upload never does.
 */
export const storageGc = pgTable(
  'storage_gc',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    prefix: text('prefix').notNull(),
    notBefore: ts('not_before').notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('storage_gc_not_before_idx').on(t.notBefore)],
);

/** Fixed-window counters; in the database so every instance counts the same attempts. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    windowStart: ts('window_start').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [index('rate_limits_window_start_idx').on(t.windowStart)],
);

export const concepts = pgTable(
  'concepts',
  {
    id: text('id').primaryKey(),
    document: jsonb('document').notNull(),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('concepts_tags_idx').using('gin', t.tags)],
);

/**
 * Webhooks (API.md "Events"): an owner's destination for some event types. The signing secret
 * (whsec_…) must be kept whole to sign each delivery; it leaves the server once, at creation.
 * A null user_id is a webhook made in an Admin Token session.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    secret: text('secret').notNull(),
    active: boolean('active').notNull().default(true),
    lastDeliveryAt: ts('last_delivery_at'),
    lastStatus: integer('last_status'),
    /**
     * Why the worker paused it (inactive after WEBHOOK_PAUSE_AFTER_FAILURES failed attempts in a
     * row); null when active or switched off by its owner. Re-enabling clears it.
     */
    pausedReason: text('paused_reason'),
    /** Failed attempts in a row, and of those the ones that timed out in a row (a short timeout from 3 on). */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    consecutiveTimeouts: integer('consecutive_timeouts').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('webhooks_user_created_idx').on(t.userId, t.createdAt, t.id)],
);

/**
 * The outbox: every event, written in the same transaction as the change that causes it, and
 * delivered from here (lib/events/worker.ts) to webhooks and e-mail. `audience` says whose
 * webhooks receive it: the owner's (user_id, null for the Admin Token's shares) or every
 * administrator's (sites). Kept ACTIVITY_RETENTION_DAYS.
 */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type').notNull(),
    audience: text('audience', { enum: ['owner', 'admins'] }).notNull().default('owner'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    data: jsonb('data').notNull(),
    /**
     * When the owner's e-mail about it is due (lib/events/mailer.ts); null: none, or sent. A
     * claim moves it past a lease, as deliveries do; a download digest moves it to the share's
     * next allowed mail.
     */
    mailAt: ts('mail_at'),
    createdAt: createdAt(),
  },
  (t) => [index('events_created_at_idx').on(t.createdAt), index('events_mail_at_idx').on(t.mailAt).where(sql`${t.mailAt} IS NOT NULL`)],
);

/** When the last download digest of a share was mailed (at most one per NOTIFY_DIGEST_MINUTES). */
export const mailDigests = pgTable('mail_digests', {
  shareId: text('share_id')
    .primaryKey()
    .references(() => shareGroups.id, { onDelete: 'cascade' }),
  sentAt: ts('sent_at').notNull(),
});

/**
 * One event for one webhook. A worker claims due rows (`FOR UPDATE SKIP LOCKED`) by moving
 * next_attempt_at past the attempt's lease, so two instances never send the same attempt and a
 * crashed instance's claim is retried once the lease runs out.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    responseStatus: integer('response_status'),
    lastError: text('last_error'),
    /** The first KiB of the receiver's last answer (shown in the delivery log, for debugging). */
    responseBody: text('response_body'),
    /** While an attempt is in flight: when its claim runs out. Counts toward the per-webhook and per-owner bounds. */
    leasedUntil: ts('leased_until'),
    deliveredAt: ts('delivered_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_webhook_due_idx').on(t.webhookId, t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_webhook_created_idx').on(t.webhookId, t.createdAt),
    index('webhook_deliveries_event_idx').on(t.eventId),
  ],
);

/**
 * Guest downloads of a share (lib/shares/download-activity.ts): an item (path) or the ZIP (null),
 * the bytes sent, whether they add up to the whole, a truncated address and user agent. One row
 * is one download: every response of one ticket (a limit), or of one client's ranges of one item
 * within a short window (no limit), adds its bytes to the row of its `dlKey` (an upsert, so two
 * instances agree); a window row whose last response is old is closed (`dlKey` null). Written in
 * batches off the byte path; kept ACTIVITY_RETENTION_DAYS.
 */
export const downloadActivity = pgTable(
  'download_activity',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    groupId: text('group_id')
      .notNull()
      .references(() => shareGroups.id, { onDelete: 'cascade' }),
    path: text('path'),
    bytes: bytes('bytes').notNull(),
    completed: boolean('completed').notNull(),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: createdAt(),
    /** `t:<ticket>` or `c:<client>:<target>` while the download may still grow; null once closed. */
    dlKey: text('dl_key'),
    /** The whole item's (or ZIP's) size: `completed` once `covered` spans it. */
    size: bytes('size'),
    /** Which bytes went out, over all the download's responses; `bytes` is their count. */
    covered: int8multirange('covered'),
    lastAt: ts('last_at').notNull().defaultNow(),
    /** share.downloaded was emitted for this download (once, when it completed). */
    notified: boolean('notified').notNull().default(false),
  },
  (t) => [
    index('download_activity_group_created_idx').on(t.groupId, t.createdAt),
    index('download_activity_created_idx').on(t.createdAt),
    uniqueIndex('download_activity_key_idx').on(t.groupId, t.dlKey),
  ],
);

/**
 * Administrative actions (who, what, when) for /htmls's audit log: Admin Token logins, token
 * changes, user changes, deploys and rollbacks, settings. No foreign key: the record outlives the
 * user it names. Kept ACTIVITY_RETENTION_DAYS × 12 (a year by default).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actor: text('actor').notNull(),
    actorId: uuid('actor_id'),
    action: text('action').notNull(),
    target: text('target').notNull().default(''),
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt, t.id), index('audit_log_action_created_idx').on(t.action, t.createdAt)],
);

/** Each member's stored bytes once a day (the janitor), for the storage chart. */
export const storageDaily = pgTable(
  'storage_daily',
  {
    day: text('day').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bytes: bytes('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.userId] })],
);

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type SignInChallengeRow = typeof signInChallenges.$inferSelect;
export type CliHandoffRow = typeof cliHandoffs.$inferSelect;
export type AccessTokenRow = typeof accessTokens.$inferSelect;
export type OidcIdentityRow = typeof oidcIdentities.$inferSelect;
export type PasskeyRow = typeof passkeys.$inferSelect;
export type WebauthnChallengeRow = typeof webauthnChallenges.$inferSelect;
export type ProjectRow = typeof projects.$inferSelect;
export type HostedFileRow = typeof hostedFiles.$inferSelect;
export type DeployRow = typeof deploys.$inferSelect;
export type ShareGroupRow = typeof shareGroups.$inferSelect;
export type ShareItemRow = typeof shareItems.$inferSelect;
export type PendingUploadRow = typeof pendingUploads.$inferSelect;
export type ConceptRow = typeof concepts.$inferSelect;
export type FileRequestRow = typeof fileRequests.$inferSelect;
export type WebhookRow = typeof webhooks.$inferSelect;
export type EventRow = typeof events.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type DownloadActivityRow = typeof downloadActivity.$inferSelect;
export type AuditRow = typeof auditLog.$inferSelect;
