import { z } from 'zod';
import { LOCALES } from '../i18n/locales';
import { statusByCode, type ErrorCode } from './error-codes';

/**
 * Response shapes of the HTTP contract: the OpenAPI document's, and the types the server builds them as
 * (lib/*-dto.ts: z.output of these) and the clients read. tests/openapi.test.ts checks real
 * responses against them.
 */
const time = z.iso.datetime().describe('ISO 8601 time in UTC');
export const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  display_name: z.string(),
  email: z.string(),
  email_verified: z.boolean().describe('Whether `email` is confirmed: mail goes only to a confirmed address; changing `email` mails a confirmation link (POST /api/auth/email/confirm)'),
  phone: z.string(),
  role: z.enum(['member', 'admin']),
  status: z.enum(['active', 'disabled']),
  quota_bytes: z.number().int(),
  used_bytes: z.number().int(),
  notify: z
    .object({ downloads: z.boolean(), uploads: z.boolean(), expiring: z.boolean() })
    .describe('E-mail notifications (when the server has SMTP_URL): completed downloads, uploads through requests, shares expiring within a day'),
  two_factor: z.boolean().describe('Whether two-factor sign-in (TOTP) is on for the account'),
  locale: z
    .enum(LOCALES)
    .nullable()
    .describe('The member’s language for their pages and mails; null: the browser’s (the picker’s cookie, else Accept-Language, else DEFAULT_LOCALE)'),
  created_at: time,
});
export const fileSchema = z.object({
  id: z.string(),
  slug: z.string(),
  path: z.string(),
  size: z.number().int(),
  content_type: z.string(),
  status: z.enum(['online', 'offline']),
  created_at: time,
});
export const projectSchema = z.object({
  slug: z.string(),
  note: z.string(),
  has_password: z.boolean(),
  file_count: z.number().int(),
  total_bytes: z.number().int(),
  created_at: time,
  url: z.string(),
  spa: z.boolean().describe('Unknown paths without an extension serve the index file'),
  allow_dotfiles: z.boolean().describe('Paths with dot-segments are served (.well-known/ always is)'),
  deploy_id: z.string().nullable().describe('The live deploy'),
  has_html: z.boolean().describe('Whether the live deploy has an HTML page; without one /p/<slug>/ is a file listing'),
  online_count: z.number().int().describe('Files of the live deploy that are online (0: the project is hidden)'),
  domains: z.array(z.string()).describe('Custom domains: host names that serve the project at their root'),
  files: z.array(fileSchema).describe('The files of the live deploy'),
});
export const uploadWarningSchema = z.object({
  code: z.enum(['referrer_off', 'root_service_worker', 'root_router', 'root_paths']),
  message: z.string().describe('For a person: which file, what will fail, and what to change (English)'),
  // The parts of `message`, for a client that words it in its reader's language.
  file: z.string().describe('The file the warning is about: the page that turns the Referer off, the script that registers the worker or changes the address, or (root_paths) the page with the root path'),
  root_ref: z.object({ file: z.string(), path: z.string() }).describe('The first root-absolute path outside /p/ the build loads, and the file that has it'),
  base: z.string().describe('Where the project is served on this shared origin: /p/<slug>/'),
  own_origin: z
    .object({
      hosted_origin: z.string().describe('The setting that gives every project an origin of its own: HOSTED_ORIGIN=https://{slug}.<name>, where <name> is the name HOSTED_ORIGIN has, or the stand-in sites.example.com when it is not set'),
      wildcard_dns: z.string().describe('The wildcard DNS name (and TLS certificate) to point at this server: *.<name>'),
      local_console: z.string().nullable().describe("On the default hosted port: the console's address on the server's own machine, where every project has an origin of its own"),
      local_site: z.string().nullable().describe('There, the address of this project'),
    })
    .describe("What to change on this server so that every project has an origin of its own"),
});
export const deploySchema = z.object({
  id: z.string(),
  created_at: time,
  file_count: z.number().int(),
  total_bytes: z.number().int(),
  created_by: z.string().describe('"admin" for the Admin Token, else the username'),
  active: z.boolean().describe('This deploy is the one /p/<slug>/ serves'),
  url: z.string().describe("The administrator's preview link, /p/<slug>@<id>/?preview=<grant> (12 h): opening it lets that browser see the deploy; without it a preview is a 404"),
});
export const shareItemSchema = z.object({
  relative_path: z.string(),
  size: z.number().int(),
  content_type: z.string(),
  url: z.string(),
  download_count: z.number().int().describe('Guest downloads of this item (docs/downloads.md): without a download limit a response reaching the last byte counts, written in batches about once a second; with one a download counts when it starts. Previews, HEAD and 304 never count.'),
});
export const shareSchema = z.object({
  id: z.string(),
  note: z.string(),
  title: z
    .string()
    .describe('What a person calls the share: the first line of its note, else its files by name ("report.pdf", "report.pdf and 3 more", the first in path order); "Shared files" while it holds none'),
  status: z.enum(['online', 'offline']),
  upload_state: z.enum(['pending', 'complete']),
  expires_at: time.nullable(),
  has_password: z.boolean(),
  user_id: z.string().nullable(),
  username: z.string().nullable(),
  file_count: z.number().int(),
  total_bytes: z.number().int(),
  download_count: z.number().int().describe('Completed guest downloads of any item or of the ZIP'),
  max_downloads: z.number().int().nullable().describe('Null: unlimited. Once download_count reaches it, guests get 410 download_limit'),
  created_at: time,
  url: z.string(),
  received: z
    .object({ request_id: z.string(), name: z.string(), email: z.string(), message: z.string() })
    .nullable()
    .describe("Files received through a file request: who sent them (null for the owner's own shares)"),
  items: z.array(shareItemSchema),
});
export const requestSchema = z.object({
  id: z.string(),
  note: z.string(),
  status: z.enum(['open', 'closed']),
  expires_at: time.nullable(),
  has_password: z.boolean(),
  user_id: z.string(),
  username: z.string(),
  max_files: z.number().int().nullable().describe('Null: the service limit (500)'),
  max_bytes: z.number().int().nullable().describe('Null: the service limit (50 GB) or REQUEST_MAX_BYTES'),
  max_uploads: z.number().int().nullable().describe('Completed uploads after which the request is full; null: no limit'),
  require_name: z.boolean(),
  allowed_types: z.array(z.string()).nullable().describe('MIME types (video/*) and extensions (.pdf); null: any'),
  upload_count: z.number().int().describe('Completed uploads'),
  received_bytes: z.number().int(),
  created_at: time,
  url: z.string().describe('/r/<id>: the guest upload page'),
});
export const requestInitResultSchema = z.object({
  groupId: z.string(),
  mode: z.enum(['direct', 'proxy']),
  partSize: z.number().int(),
  files: z.array(z.object({ clientPath: z.string(), relativePath: z.string(), uploadId: z.string(), storageKey: z.string(), partCount: z.number().int() })),
  uploadToken: z.string().describe('Bearer for this upload\'s protocol calls (chunk, part-url, status, complete, abort of this groupId) while it is pending; 401 anywhere else'),
});
export const accessTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('The first 14 characters of the secret (htmls_pat_ and four more), to recognise it'),
  scopes: z.array(z.string()),
  expires_at: time.nullable(),
  last_used_at: time.nullable(),
  last_used_ip: z.string().nullable().describe('The address of the last use'),
  created_at: time,
});
export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  active: z.boolean(),
  created_at: time,
  last_delivery_at: time.nullable(),
  last_status: z.number().int().nullable().describe('The HTTP status of the last attempt (null: no answer)'),
  paused_reason: z
    .string()
    .nullable()
    .describe('Why delivery paused it (active false after WEBHOOK_PAUSE_AFTER_FAILURES failed attempts in a row); null otherwise. PATCH {active: true} re-enables it'),
});
export const deliverySchema = z.object({
  id: z.string(),
  event_id: z.string().describe('Also the webhook-id header: the same for every attempt and redelivery'),
  type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  response_status: z.number().int().nullable(),
  response_body: z.string().nullable().describe("The first KiB of the receiver's last answer (null: no answer)"),
  error: z.string().nullable().describe('Why the last attempt failed (an HTTP status, a refused connection, a timeout, a refused address); null when delivered'),
  payload: z
    .object({ type: z.string(), timestamp: time, data: z.record(z.string(), z.unknown()) })
    .describe('The body sent, as JSON (signed as sent; the webhook-id header is event_id)'),
  created_at: time,
  delivered_at: time.nullable(),
});
export const shareActivitySchema = z.object({
  per_day: z
    .array(z.object({ day: z.string().describe('YYYY-MM-DD (UTC)'), downloads: z.number().int(), completed: z.number().int() }))
    .describe('The last 30 days, oldest first: downloads that sent bytes, and those whose bytes reached the size'),
  downloads: z
    .array(
      z.object({
        at: time,
        path: z.string().nullable().describe('The item, or null for the ZIP'),
        bytes: z.number().int().describe("The bytes sent, summed over the download's responses (ranges, resumes)"),
        size: z.number().int().nullable().describe('The whole item or ZIP (null for downloads recorded before sizes were kept)'),
        completed: z.boolean().describe('The bytes sent reached the size'),
        address: z.string().describe("The guest's network only (IPv4 /24, IPv6 /48)"),
        user_agent: z.string(),
      }),
    )
    .describe('The newest 200 downloads, newest first: one per download ticket, or per client and item within 10 minutes without a limit'),
  retention_days: z.number().int().describe('Days activity is kept (ACTIVITY_RETENTION_DAYS)'),
});
export const auditEntrySchema = z.object({
  id: z.string(),
  at: time,
  actor: z.string().describe("A member's username, or 'Admin Token'"),
  action: z.string().describe('admin.login, admin_token.changed, user.created, user.updated, user.deleted, user.sessions_ended, settings.updated, site.deployed, site.rolled_back, project.updated, project.deleted, file.deleted, file.status, request.uploads_discarded'),
  target: z.string(),
  address: z.string(),
});
export const storageHistorySchema = z.object({
  days: z.array(z.string()).describe('YYYY-MM-DD (UTC), oldest first'),
  members: z.array(z.object({ user_id: z.string(), username: z.string(), bytes: z.array(z.number().int().nullable()).describe('Stored bytes on each day of `days` (null: no record)') })),
});
/** A list entry of GET /api/shares: the share without its items (GET /api/shares/:id has them). */
export const shareSummarySchema = shareSchema.omit({ items: true });
/** A list entry of GET /api/files: the project without its files (GET /api/projects/:slug has them). */
export const domainDnsSchema = z.object({
  host: z.string(),
  points_here: z.boolean().describe("Whether the domain's addresses include one of this service's"),
  addresses: z.array(z.string()).describe('What DNS answered for the domain (A and AAAA), as the server sees it'),
  service_addresses: z.array(z.string()).describe("This service's addresses it was compared with"),
  error: z.string().nullable().describe("The resolver's error code when the domain has no address (ENOTFOUND, ETIMEOUT, …)"),
});
export const projectSummarySchema = projectSchema.omit({ files: true });
export const nextCursorSchema = z.string().nullable().describe('Pass as ?cursor= for the next page; null on the last page');
const errorCodes = Object.keys(statusByCode) as [ErrorCode, ...ErrorCode[]];
export const errorSchema = z.object({
  error: z.string().describe('A sentence for a person'),
  code: z.enum(errorCodes).describe('snake_case error code; the status follows from it'),
});
export const violationSchema = z.object({
  path: z.string().describe('JSON pointer into the sent document, e.g. /relations/0/confidence ("" is the document)'),
  message: z.string(),
});
export const validationErrorSchema = errorSchema.extend({
  code: z.literal('invalid_request'),
  violations: z.array(violationSchema).min(1).describe('Every violation, not only the first'),
});
/**
 * Stands in for the Concept 1.0 document: the routes validate concepts with the JSON Schema in
 * public/schemas/concept-1.0.json, and the OpenAPI document embeds that file in its place.
 */
export const conceptSchema = z.record(z.string(), z.unknown());
const check = z.enum(['ok', 'unavailable']);
export const healthSchema = z.object({
  ok: z.boolean(),
  database: check,
  storage: check,
  migrations: z.enum(['applied', 'pending']),
  /** This instance's janitor since it started: how many runs it did (it runs when it holds the lease), and when the last began. */
  janitor: z.object({ runs: z.number().int(), last_run_at: z.string().nullable() }),
});
const initFile = z.object({ clientPath: z.string(), relativePath: z.string(), uploadId: z.string(), storageKey: z.string(), partCount: z.number().int() });
export const initResultSchema = z.object({ groupId: z.string(), mode: z.enum(['direct', 'proxy']), partSize: z.number().int(), files: z.array(initFile) });
export const capabilitiesSchema = z.object({
  mode: z.enum(['direct', 'proxy']),
  partSize: z.number().int(),
  parallel: z.number().int(),
  maxRetries: z.number().int(),
  maxFiles: z.number().int(),
  maxTotalBytes: z.number().int(),
  /** Who makes videos' poster frames: the server (ffmpeg), or the uploader's browser (POST /api/shares/{id}/poster). */
  videoPosters: z.enum(['server', 'browser']).optional().describe("Who makes videos' poster frames: the server (ffmpeg) or the uploader's browser (POST /api/shares/{id}/poster)"),
});
export const uploadStatusSchema = z.object({
  groupId: z.string(),
  mode: z.enum(['direct', 'proxy']),
  partSize: z.number().int(),
  files: z.array(
    initFile.extend({
      size: z.number().int(),
      completed: z.boolean(),
      parts: z.array(z.object({ partNumber: z.number().int(), size: z.number().int(), etag: z.string() })),
    }),
  ),
});
export const partUrlResultSchema = z.object({ url: z.string(), headers: z.record(z.string(), z.string()).optional(), expiresAt: z.string() });
export const chunkResultSchema = z.object({ partNumber: z.number().int(), etag: z.string() });
export const sessionResultSchema = z.object({ role: z.enum(['admin', 'member']), user: userSchema.nullable(), token: z.string(), expires_at: time });
/** A sign-in that waits for its second factor (or for enrolment): no session yet (issue 42). */
export const secondFactorStepSchema = z.object({
  second_factor: z.enum(['required', 'enroll']),
  challenge: z.string().describe('For POST /api/auth/login/second-factor, or /api/auth/totp/setup and /enable when enrolling; 5 minutes, 5 tries'),
  expires_at: time,
});
/** A member's passkey, as Settings lists it (never its key). */
export const passkeySchema = z.object({ id: z.string(), name: z.string(), created_at: time, last_used_at: time.nullable() });
/** WebAuthn options for navigator.credentials.create() or .get(), as JSON (@simplewebauthn/browser takes them as they are). */
export const webauthnOptionsSchema = z.looseObject({ challenge: z.string(), rpId: z.string().optional(), rp: z.looseObject({ id: z.string().optional(), name: z.string() }).optional() });
export const loginResultSchema = z.union([sessionResultSchema, secondFactorStepSchema]);
export const sessionSchema = z.object({
  id: z.string(),
  current: z.boolean(),
  method: z.string().describe('password, password+totp, password+recovery, password+passkey, passkey, admin_token, oidc…'),
  user_agent: z.string(),
  network: z.string().describe('The address network: IPv4 /24 or IPv6 /64'),
  created_at: time,
  last_used_at: time,
});
export const okSchema = z.object({ ok: z.literal(true) });
/** The member's link to the single sign-on provider, for Settings (issue 42). */
export const oidcIdentitySchema = z.object({
  provider: z.object({ name: z.string() }).nullable(),
  identity: z.object({ email: z.string(), created_at: time, last_login_at: time.nullable() }).nullable(),
  has_password: z.boolean(),
});
/** The ways to sign in that /files offers (issue 42). */
export const authMethodsSchema = z.object({
  password: z.boolean(),
  oidc: z.object({ name: z.string() }).nullable(),
  passkeys: z.boolean(),
  require_2fa: z.enum(['off', 'admins', 'all']),
});

/** Named shapes: each is one entry of components.schemas, referenced wherever it appears. */
export const components = z.registry<{ id: string }>();
components.add(userSchema, { id: 'User' });
components.add(fileSchema, { id: 'File' });
components.add(projectSchema, { id: 'Project' });
components.add(deploySchema, { id: 'Deploy' });
components.add(shareItemSchema, { id: 'ShareItem' });
components.add(shareSchema, { id: 'Share' });
components.add(accessTokenSchema, { id: 'AccessToken' });
components.add(requestSchema, { id: 'FileRequest' });
components.add(webhookSchema, { id: 'Webhook' });
components.add(deliverySchema, { id: 'Delivery' });
components.add(shareActivitySchema, { id: 'ShareActivity' });
components.add(auditEntrySchema, { id: 'AuditEntry' });
components.add(shareSummarySchema, { id: 'ShareSummary' });
components.add(projectSummarySchema, { id: 'ProjectSummary' });
components.add(errorSchema, { id: 'Error' });
components.add(validationErrorSchema, { id: 'ValidationError' });
components.add(conceptSchema, { id: 'Concept' });

/** GET /api/oembed (oEmbed 1.0, type "link"): a share page's card; the thumbnail only on a specific card. */
export const oembedSchema = z.object({
  version: z.literal('1.0'),
  type: z.literal('link'),
  title: z.string(),
  description: z.string().describe('Not in oEmbed 1.0, read by some consumers: what og:description says'),
  provider_name: z.literal('htmls'),
  provider_url: z.string(),
  cache_age: z.number().int(),
  thumbnail_url: z.string().optional(),
  thumbnail_width: z.number().int().optional(),
  thumbnail_height: z.number().int().optional(),
});
