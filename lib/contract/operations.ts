/**
 * Every /api operation defined once: method and path (from endpoints.ts), auth, input, success
 * status and response, error statuses. route() and fastRoute() take their auth and input
 * parsing from here, lib/contract/openapi.ts builds the document from here, and the response
 * types the server builds (toUserDto, toShareDto…) and the clients read are z.infer of the
 * same schemas. tests/openapi.test.ts checks that each route file hands route() the operation
 * of its own method and path, and that real answers match the response schemas.
 */
import { z } from 'zod';
import {
  changePasswordSchema,
  changeTokenSchema,
  cliHandoffApproveSchema,
  cliHandoffPollSchema,
  deletePasskeySchema,
  loginSchema,
  oidcCallbackQuerySchema,
  oidcStartQuerySchema,
  passkeyLoginSchema,
  passkeyOptionsSchema,
  registerPasskeySchema,
  renamePasskeySchema,
  secondFactorSchema,
  totpDisableSchema,
  totpEnableSchema,
  totpSetupSchema,
} from './auth';
import { conceptsQuerySchema } from './concepts';
import { auditQuerySchema, createWebhookSchema, storageHistoryQuerySchema, updateWebhookSchema } from './events';
import { endpoints, type Auth, type EndpointName, type Method } from './endpoints';
import { fileStatusSchema, tlsAskQuerySchema, updateProjectSchema } from './hosting';
import { listQuerySchema } from './lists';
import * as R from './responses';
import type { OperationScope } from './scopes';
import { createTokenSchema, pageQuerySchema } from './tokens';
import { oembedQuerySchema } from './oembed';
import { abortSchema, chunkQuerySchema, completeSchema, initSchema, oneRequestQuerySchema, partUrlSchema, resumeSchema, shareItemQuerySchema, sharePosterSchema, updateShareSchema } from './shares';
import { createRequestSchema, requestIdSchema, requestUploadSchema, updateRequestSchema } from './requests';
import { confirmEmailSchema, createUserSchema, ownProfileSchema, registerSchema, settingsSchema, updateUserSchema } from './users';

export type { Auth, OperationScope };

export interface Operation {
  method: Method;
  path: string;
  summary: string;
  auth: Auth;
  /**
   * What an access token needs for it (lib/contract/scopes.ts): route(), fastRoute(), the
   * OpenAPI document and tests/token-scopes.test.ts read this one declaration.
   */
  scope: OperationScope;
  /** The JSON body, parsed by route() before the handler runs. */
  body?: z.ZodType;
  /** The JSON body may be left out (no Content-Type, no bytes): the handler gets `{}` parsed by `body`. */
  optionalBody?: true;
  /** 'handler': the body is documented by `body` but checked by the handler (concepts: the JSON Schema file). */
  bodyCheckedBy?: 'handler';
  /** Non-JSON request bodies, left to the handler (it streams them). */
  rawBody?: 'multipart' | 'octets';
  query?: z.ZodObject;
  /** The JSON body limit when it is not the default (1 MiB; 4 KiB for anonymous routes). */
  maxBodyBytes?: number;
  /** Its body may take long to arrive (as every rawBody's): the long time limit at a minimum pace (lib/http/routes.ts). */
  longBody?: true;
  /** Only /api/health answers while migrations are pending. */
  allowPendingMigrations?: true;
  /** A browser request from another site is refused even without a session (logout: signing out is a change too). */
  refuseCrossSite?: true;
  status: number;
  response?: z.ZodType;
  errors: number[];
  /** Recorded in the audit log (lib/events/audit.ts) when it succeeds: the action's name. */
  audit?: string;
  /** Its 400 lists every schema violation (concepts). */
  violations?: true;
  /**
   * A guest's upload token (API.md "File requests") may call it instead of a session: the
   * upload protocol's calls for the token's own group. Every other operation answers it 401.
   */
  uploadToken?: true;
}

const obj = <S extends Record<string, z.ZodType>>(shape: S) => z.object(shape);
const shareListQuerySchema = listQuerySchema.extend({ request: requestIdSchema.optional().describe('Only the shares received through this file request') });

export const operations = {
  health: { ...endpoints.health, summary: 'Health of the database, the store and the migrations', auth: 'none', scope: 'public', allowPendingMigrations: true, status: 200, response: R.healthSchema, errors: [503] },
  oembed: {
    ...endpoints.oembed,
    summary: "oEmbed for a share page (/f/<id> of this service): its card as a link, generic when locked or expired (docs/link-previews.md)",
    auth: 'none',
    scope: 'public',
    query: oembedQuerySchema,
    status: 200,
    response: R.oembedSchema,
    errors: [400, 404, 429],
  },
  login: { ...endpoints.login, summary: 'Sign in with username and password, or the Admin Token', auth: 'none', scope: 'public', body: loginSchema, status: 200, response: R.loginResultSchema, errors: [400, 401, 403, 429] },
  register: { ...endpoints.register, summary: 'Register a member account (default quota) and sign in; with REQUIRE_2FA=all no session but the enrolment challenge, as login answers', auth: 'none', scope: 'public', body: registerSchema, status: 201, response: z.union([obj({ user: R.userSchema, token: z.string(), expires_at: z.string() }), R.secondFactorStepSchema]), errors: [400, 409, 429] },
  logout: { ...endpoints.logout, summary: 'Revoke the session and clear the cookies (refused from another origin)', auth: 'none', scope: 'public', refuseCrossSite: true, status: 200, response: R.okSchema, errors: [403] },
  checkAuth: { ...endpoints.checkAuth, summary: 'Whether the caller is signed in (never 401)', auth: 'optional', scope: 'public', status: 200, response: obj({ authenticated: z.boolean(), role: z.enum(['admin', 'member']).nullable() }), errors: [429] },
  me: { ...endpoints.me, summary: 'The caller: role, and profile with quota and usage', auth: 'session', scope: 'account:read', status: 200, response: obj({ role: z.enum(['admin', 'member']), user: R.userSchema.nullable() }), errors: [401] },
  updateProfile: { ...endpoints.updateProfile, summary: "Change the member's display name, email and phone (a new email needs current_password — 400 without, 401 wrong_password — is unconfirmed and is mailed a confirmation link; 429 past the confirmation limits or the password tries)", auth: 'member', scope: 'no-token', body: ownProfileSchema, status: 200, response: obj({ user: R.userSchema }), errors: [400, 401, 403, 429] },
  authMethods: { ...endpoints.authMethods, summary: 'The ways to sign in: password, single sign-on (its button name), passkeys, and who must use a second factor', auth: 'none', scope: 'public', status: 200, response: R.authMethodsSchema, errors: [] },
  oidcStart: {
    ...endpoints.oidcStart,
    summary: "Single sign-on: 302 to the OpenID provider (authorization code + PKCE; state and nonce in a short HttpOnly cookie); link=1 links the identity to the member signed in here. A refusal is a 302 to /files?sso_error=<code>",
    auth: 'none',
    scope: 'public',
    query: oidcStartQuerySchema,
    status: 302,
    errors: [],
  },
  oidcCallback: {
    ...endpoints.oidcCallback,
    summary: "Single sign-on: the provider's answer; 302 to return_to with the member session cookie (the identity's iss + sub name the account, never its e-mail), or to /files?sso_error=<code> with none",
    auth: 'none',
    scope: 'public',
    query: oidcCallbackQuerySchema,
    status: 302,
    errors: [],
  },
  getOidcIdentity: { ...endpoints.getOidcIdentity, summary: "The member's linked single sign-on identity (null when none), and whether the account has a password", auth: 'member', scope: 'account:read', status: 200, response: R.oidcIdentitySchema, errors: [401, 403] },
  unlinkOidcIdentity: { ...endpoints.unlinkOidcIdentity, summary: 'Unlink the single sign-on identity; 409 when the account would be left with no way to sign in (no password)', auth: 'member', scope: 'no-token', status: 204, errors: [401, 403, 404, 409] },
  confirmEmail: { ...endpoints.confirmEmail, summary: "Confirm an e-mail address with its link's token (single-use, expires after a day; no login: the mailbox is the proof)", auth: 'none', scope: 'public', body: confirmEmailSchema, status: 200, response: R.okSchema, errors: [400] },
  resendEmailConfirmation: { ...endpoints.resendEmailConfirmation, summary: "Mail a new confirmation link to the member's unconfirmed address (the previous link stops working)", auth: 'member', scope: 'no-token', status: 200, response: obj({ user: R.userSchema }), errors: [400, 401, 403, 409, 429] },
  deleteOwnAccount: { ...endpoints.deleteOwnAccount, summary: 'Delete the account with its shares, objects and sessions', auth: 'member', scope: 'no-token', status: 204, errors: [401, 403] },
  changeAdminToken: { ...endpoints.changeAdminToken, audit: 'admin_token.changed', summary: 'Replace the Admin Token (at least 16 characters, not a known-weak value)', auth: 'admin', scope: 'no-token', body: changeTokenSchema, status: 200, response: obj({ ok: z.literal(true), token: z.string(), expires_at: z.string() }), errors: [400, 401, 403] },
  loginSecondFactor: { ...endpoints.loginSecondFactor, summary: "A sign-in's second step: a TOTP code (single-use, ±30 s), a recovery code (single-use) or a passkey `response` (to second_factor options with this challenge) for its challenge; answers as login. 401 wrong_code; 429 after 5 tries of a challenge", auth: 'none', scope: 'public', body: secondFactorSchema, maxBodyBytes: 16 * 1024, status: 200, response: R.sessionResultSchema, errors: [400, 401, 429] },
  totpSetup: { ...endpoints.totpSetup, summary: 'A new TOTP secret and its otpauth:// URL, not active until /enable takes a code from it (a session, or the challenge of a sign-in that must enrol)', auth: 'optional', scope: 'no-token', body: totpSetupSchema, status: 200, response: obj({ secret: z.string(), otpauth_url: z.string() }), errors: [400, 401, 403, 409, 429] },
  totpEnable: { ...endpoints.totpEnable, summary: "Turn TOTP on with a code from the set-up secret: ten recovery codes, shown this once; the account's other sessions end. With an enrolment challenge the answer also carries the session, as login", auth: 'optional', scope: 'no-token', body: totpEnableSchema, status: 200, response: obj({ recovery_codes: z.array(z.string()).length(10), role: z.enum(['admin', 'member']).optional(), user: R.userSchema.optional(), token: z.string().optional(), expires_at: z.string().optional() }), errors: [400, 401, 403, 409, 429] },
  totpDisable: { ...endpoints.totpDisable, summary: 'Turn TOTP off (its recovery codes with it): needs the current password, or a passkey `response` to second_factor options asked without a challenge (401 wrong_password)', auth: 'member', scope: 'no-token', body: totpDisableSchema, status: 204, errors: [400, 401, 403, 429] },
  changePassword: { ...endpoints.changePassword, summary: "Change the member's own password: needs the current one (401 wrong_password); every other session of theirs ends", auth: 'member', scope: 'no-token', body: changePasswordSchema, status: 200, response: R.okSchema, errors: [400, 401, 403, 429] },
  passkeyOptions: {
    ...endpoints.passkeyOptions,
    summary: 'WebAuthn options with a new single-use challenge (5 minutes): register (a member session; resident key, user verification), login (discoverable credentials, anyone), second_factor (with a sign-in challenge; without one, the signed-in member confirming it is them)',
    auth: 'optional',
    scope: 'no-token',
    body: passkeyOptionsSchema,
    status: 200,
    response: R.webauthnOptionsSchema,
    errors: [400, 401, 403, 409, 429],
  },
  registerPasskey: { ...endpoints.registerPasskey, summary: "Add a passkey: the browser's answer to register options, and a name. 409 when the credential is registered already", auth: 'member', scope: 'no-token', body: registerPasskeySchema, status: 201, response: obj({ passkey: R.passkeySchema }), errors: [400, 401, 403, 409, 429] },
  listPasskeys: { ...endpoints.listPasskeys, summary: "The member's passkeys, oldest first", auth: 'member', scope: 'no-token', status: 200, response: obj({ passkeys: z.array(R.passkeySchema) }), errors: [401, 403, 429] },
  passkeyLogin: { ...endpoints.passkeyLogin, summary: "Sign in with a passkey instead of a password: the browser's answer to login options (user verification counts as the second factor); answers as login. 401 when it does not verify", auth: 'none', scope: 'public', body: passkeyLoginSchema, maxBodyBytes: 16 * 1024, status: 200, response: R.sessionResultSchema, errors: [400, 401, 403, 429] },
  renamePasskey: { ...endpoints.renamePasskey, summary: 'Rename one of the member\'s passkeys', auth: 'member', scope: 'no-token', body: renamePasskeySchema, status: 200, response: obj({ passkey: R.passkeySchema }), errors: [400, 401, 403, 404, 429] },
  deletePasskey: {
    ...endpoints.deletePasskey,
    summary: "Remove one of the member's passkeys. The last one needs the current password or a passkey `response` (401 wrong_password); 409 when it is the account's only way in",
    auth: 'member',
    scope: 'no-token',
    body: deletePasskeySchema,
    optionalBody: true,
    status: 204,
    errors: [400, 401, 403, 404, 409, 429],
  },
  startCliHandoff: {
    ...endpoints.startCliHandoff,
    summary: 'htmls login --sso: a hand-off (10 minutes) for the CLI to poll with device_code, and the page where the member signs in (single sign-on) and approves it, showing user_code to compare with the terminal. 10 per address in 10 minutes',
    auth: 'none',
    scope: 'public',
    status: 201,
    response: obj({ device_code: z.string(), user_code: z.string(), verification_url: z.string(), expires_at: z.string(), interval: z.number().int().describe('Seconds between polls') }),
    errors: [429],
  },
  pollCliHandoff: {
    ...endpoints.pollCliHandoff,
    summary: "htmls login --sso: `pending` until the member approves; then, once, the member's session as login answers it. 410 expired when unknown, expired or already taken",
    auth: 'none',
    scope: 'public',
    body: cliHandoffPollSchema,
    status: 200,
    response: z.union([obj({ status: z.literal('pending') }), obj({ status: z.literal('approved'), role: z.enum(['admin', 'member']), user: R.userSchema, token: z.string(), expires_at: z.string() })]),
    errors: [400, 410, 429],
  },
  approveCliHandoff: {
    ...endpoints.approveCliHandoff,
    summary: "htmls login --sso: the signed-in member (a session, not an access token) approves the hand-off whose code the terminal shows; the CLI's next poll gets a session of this account. 404 for an unknown, expired or used code",
    auth: 'member',
    scope: 'no-token',
    body: cliHandoffApproveSchema,
    status: 200,
    response: R.okSchema,
    errors: [400, 401, 403, 404, 429],
  },
  listSessions: { ...endpoints.listSessions, summary: "The member's signed-in sessions, newest first, the caller's marked current", auth: 'member', scope: 'no-token', status: 200, response: obj({ sessions: z.array(R.sessionSchema) }), errors: [401, 403, 429] },
  endSession: { ...endpoints.endSession, summary: "End one of the member's sessions", auth: 'member', scope: 'no-token', status: 204, errors: [401, 403, 404, 429] },
  endOtherSessions: { ...endpoints.endOtherSessions, summary: "End every session of the member but the caller's", auth: 'member', scope: 'no-token', status: 204, errors: [401, 403, 429] },
  endUserSessions: { ...endpoints.endUserSessions, audit: 'user.sessions_ended', summary: "End every session of a member (administrator): they must sign in again", auth: 'admin', scope: 'admin', status: 204, errors: [401, 403, 404] },
  listUsers: { ...endpoints.listUsers, summary: 'A page of users with quota and usage, newest first', auth: 'admin', scope: 'admin', query: listQuerySchema, status: 200, response: obj({ users: z.array(R.userSchema), next_cursor: R.nextCursorSchema }), errors: [400, 401, 403] },
  createUser: { ...endpoints.createUser, audit: 'user.created', summary: 'Create a user', auth: 'admin', scope: 'admin', body: createUserSchema, status: 201, response: obj({ user: R.userSchema }), errors: [400, 401, 403, 409] },
  updateUser: { ...endpoints.updateUser, audit: 'user.updated', summary: 'Change quota, status, role, profile or password', auth: 'admin', scope: 'admin', body: updateUserSchema, status: 200, response: obj({ user: R.userSchema }), errors: [400, 401, 403, 404] },
  deleteUser: { ...endpoints.deleteUser, audit: 'user.deleted', summary: 'Delete a user, as account deletion', auth: 'admin', scope: 'admin', status: 204, errors: [401, 403, 404] },
  getSettings: { ...endpoints.getSettings, summary: 'The default quota for new registrations', auth: 'admin', scope: 'admin', status: 200, response: settingsSchema, errors: [401, 403] },
  updateSettings: { ...endpoints.updateSettings, audit: 'settings.updated', summary: 'Change the default quota (existing users unchanged)', auth: 'admin', scope: 'admin', body: settingsSchema, status: 200, response: settingsSchema, errors: [400, 401, 403] },
  listProjects: { ...endpoints.listProjects, summary: 'A page of hosted projects, newest first, with file counts (GET /api/projects/:slug has the files)', auth: 'admin', scope: 'admin', query: listQuerySchema, status: 200, response: obj({ projects: z.array(R.projectSummarySchema), next_cursor: R.nextCursorSchema }), errors: [400, 401, 403] },
  getProject: { ...endpoints.getProject, summary: 'One project with the files of its live deploy', auth: 'admin', scope: 'admin', status: 200, response: obj({ project: R.projectSchema }), errors: [401, 403, 404] },
  deleteFile: { ...endpoints.deleteFile, audit: 'file.deleted', summary: 'Delete one hosted file and its bytes', auth: 'admin', scope: 'admin', status: 204, errors: [401, 403, 404] },
  uploadSite: { ...endpoints.uploadSite, audit: 'site.deployed', summary: 'Upload a site as a new deploy: fields slug?, note?, password?, append? or replace? ("true"), spa?, dotfiles? first, then one part per file named by its relative path (UTF-8), or one .zip part that is unpacked', auth: 'admin', scope: 'sites:deploy:{slug}', rawBody: 'multipart', status: 201, response: obj({ project: R.projectSchema, skipped: z.array(z.string()).describe('Entries of a .zip left out as private (.git/, .env*, .hg/, .svn/, node_modules/) unless dotfiles'), warnings: z.array(R.uploadWarningSchema).describe('Where this build will still break on the hosted origin') }), errors: [400, 401, 403, 409, 413] },
  listDeploys: { ...endpoints.listDeploys, summary: "A project's kept deploys, newest first (DEPLOY_HISTORY of them)", auth: 'admin', scope: 'sites:deploy:{slug}', status: 200, response: obj({ deploys: z.array(R.deploySchema) }), errors: [401, 403, 404] },
  activateDeploy: { ...endpoints.activateDeploy, audit: 'site.rolled_back', summary: 'Make a kept deploy live at once (rollback)', auth: 'admin', scope: 'sites:deploy:{slug}', status: 200, response: obj({ project: R.projectSchema }), errors: [401, 403, 404] },
  setFileStatus: { ...endpoints.setFileStatus, audit: 'file.status', summary: 'Set a hosted file online or offline', auth: 'admin', scope: 'admin', body: fileStatusSchema, status: 200, response: obj({ file: R.fileSchema }), errors: [400, 401, 403, 404] },
  updateProject: { ...endpoints.updateProject, audit: 'project.updated', summary: 'Change the note, the password, SPA mode, dotfiles or custom domains of a project (409 domain_taken: another project has the domain)', auth: 'admin', scope: 'admin', body: updateProjectSchema, status: 200, response: obj({ project: R.projectSchema }), errors: [400, 401, 403, 404, 409] },
  checkProjectDomains: { ...endpoints.checkProjectDomains, summary: "Each custom domain of a project with this server's DNS answer for it, and whether it points here", auth: 'admin', scope: 'admin', status: 200, response: obj({ domains: z.array(R.domainDnsSchema) }), errors: [401, 403, 404] },
  tlsAsk: { ...endpoints.tlsAsk, summary: "Whether a host name is a project's custom domain, for a TLS proxy's on-demand certificates (Caddy's ask): 200 or 404, nothing else", auth: 'none', scope: 'public', query: tlsAskQuerySchema, status: 200, response: R.okSchema, errors: [404, 429] },
  deleteProject: { ...endpoints.deleteProject, audit: 'project.deleted', summary: 'Delete a project with its files and bytes', auth: 'admin', scope: 'admin', status: 204, errors: [401, 403, 404] },
  listShares: { ...endpoints.listShares, summary: "A page of the caller's shares (the administrator: all), newest first, with file counts (GET /api/shares/:id has the items); ?request= only those received through that file request", auth: 'session', scope: 'shares:read', query: shareListQuerySchema, status: 200, response: obj({ shares: z.array(R.shareSummarySchema), next_cursor: R.nextCursorSchema }), errors: [400, 401] },
  getShare: { ...endpoints.getShare, summary: "One of the caller's shares with its items (the administrator: any)", auth: 'session', scope: 'shares:read', status: 200, response: obj({ share: R.shareSchema }), errors: [401, 404] },
  updateShare: { ...endpoints.updateShare, summary: 'Change note, expiry, password, status or max_downloads (null: unlimited)', auth: 'session', scope: 'shares:write', body: updateShareSchema, status: 200, response: obj({ share: R.shareSchema }), errors: [400, 401, 404, 409, 429] },
  deleteShare: { ...endpoints.deleteShare, summary: 'Delete a share and its objects; usage shrinks', auth: 'session', scope: 'shares:write', status: 204, errors: [401, 404] },
  getShareActivity: { ...endpoints.getShareActivity, summary: "A share's downloads per day (30 days) and its newest downloads: time, item, bytes, completed or not, the guest's network and user agent", auth: 'session', scope: 'shares:read', status: 200, response: obj({ activity: R.shareActivitySchema }), errors: [401, 404] },
  deleteShareItem: { ...endpoints.deleteShareItem, summary: "Remove one file from a published share (`path`: its relative_path): guests stop seeing it at once, its bytes are deleted and usage shrinks; a share's only file cannot be removed (delete the share)", auth: 'session', scope: 'shares:write', query: shareItemQuerySchema, status: 204, errors: [400, 401, 404, 409] },
  setSharePoster: { ...endpoints.setSharePoster, summary: "The poster frame of a video of one's own share, captured by the uploader's browser when the server has no ffmpeg (capabilities' videoPosters: browser): re-encoded, stored beside the video, shown on the share page and in its link preview. 409 when the video has its poster already or is not a video", auth: 'session', scope: 'shares:write', body: sharePosterSchema, maxBodyBytes: 2560 * 1024, status: 204, errors: [400, 401, 404, 409, 413] },
  uploadCapabilities: { ...endpoints.uploadCapabilities, summary: 'Upload mode, part size, parallelism and limits', auth: 'session', scope: 'shares:write', status: 200, response: R.capabilitiesSchema, errors: [401] },
  initUpload: { ...endpoints.initUpload, summary: 'Check limits and quota, create the offline group and one multi-part upload per file; with share_id, add the files to that published share of the caller (guests see them once complete)', auth: 'session', scope: 'shares:write', body: initSchema, status: 201, response: R.initResultSchema, errors: [400, 401, 409, 413, 429] },
  partUrl: { ...endpoints.partUrl, summary: "A presigned UploadPart URL (direct mode); it signs the part's exact length, so PUT exactly that many bytes with the returned headers", auth: 'session', uploadToken: true, scope: 'shares:write', body: partUrlSchema, status: 200, response: R.partUrlResultSchema, errors: [400, 401, 404] },
  uploadChunk: { ...endpoints.uploadChunk, summary: 'One part through the server (proxy mode); Content-Length required', auth: 'session', uploadToken: true, scope: 'shares:write', rawBody: 'octets', query: chunkQuerySchema, status: 200, response: R.chunkResultSchema, errors: [400, 401, 404, 408, 413] },
  completeUpload: { ...endpoints.completeUpload, summary: 'Merge the stored parts and publish the share', auth: 'session', uploadToken: true, scope: 'shares:write', body: completeSchema, maxBodyBytes: 8 * 1024 * 1024, longBody: true, status: 200, response: obj({ share: R.shareSchema }), errors: [400, 401, 404, 409, 410, 413, 502] },
  abortUpload: { ...endpoints.abortUpload, summary: "Abort every part upload of the group and delete its records (the administrator: any member's)", auth: 'session', uploadToken: true, scope: 'shares:write', body: abortSchema, status: 200, response: R.okSchema, errors: [400, 401, 404, 409] },
  uploadStatus: { ...endpoints.uploadStatus, summary: 'Parts the store already holds, to resume an upload', auth: 'session', uploadToken: true, scope: 'shares:write', body: resumeSchema, status: 200, response: R.uploadStatusSchema, errors: [400, 401, 404, 409] },
  listRequests: { ...endpoints.listRequests, summary: "A page of the caller's file requests (the administrator: everyone's), newest first", auth: 'session', scope: 'requests:read', query: listQuerySchema, status: 200, response: obj({ requests: z.array(R.requestSchema), next_cursor: R.nextCursorSchema }), errors: [400, 401] },
  createRequest: { ...endpoints.createRequest, summary: 'Make a file request: a link /r/<id> through which anyone uploads files to you (FILE_REQUESTS decides who may)', auth: 'member', scope: 'requests:write', body: createRequestSchema, status: 201, response: obj({ request: R.requestSchema }), errors: [400, 401, 403, 429] },
  getRequest: { ...endpoints.getRequest, summary: "One of the caller's file requests (the administrator: any)", auth: 'session', scope: 'requests:read', status: 200, response: obj({ request: R.requestSchema }), errors: [401, 404] },
  updateRequest: { ...endpoints.updateRequest, summary: 'Change a file request, close it or reopen it (status); null clears a limit (the administrator: any request)', auth: 'session', scope: 'requests:write', body: updateRequestSchema, status: 200, response: obj({ request: R.requestSchema }), errors: [400, 401, 404, 429] },
  deleteRequest: { ...endpoints.deleteRequest, summary: 'Delete a file request and its unfinished uploads; files already received stay as your shares', auth: 'session', scope: 'requests:write', status: 204, errors: [401, 404] },
  discardRequestUploads: { ...endpoints.discardRequestUploads, audit: 'request.uploads_discarded', summary: "Discard every guest's unfinished upload to a file request (their parts deleted, the quota they hold freed); finished ones stay", auth: 'session', scope: 'requests:write', status: 200, response: obj({ discarded: z.number().int().describe('Unfinished uploads discarded') }), errors: [401, 404] },
  requestUpload: { ...endpoints.requestUpload, summary: "A guest's upload to a file request (no login): checks the request's limits, then answers a share init and an uploadToken, the Bearer of this upload's protocol calls", auth: 'none', scope: 'public', body: requestUploadSchema, maxBodyBytes: 1024 * 1024, status: 201, response: R.requestInitResultSchema, errors: [400, 401, 404, 410, 413, 429] },
  listConcepts: { ...endpoints.listConcepts, summary: 'Concepts, optionally by tag', auth: 'admin', scope: 'admin', query: conceptsQuerySchema, status: 200, response: obj({ concepts: z.array(R.conceptSchema) }), errors: [400, 401, 403] },
  createConcept: { ...endpoints.createConcept, summary: 'Store a concept (validated against Concept 1.0)', auth: 'admin', scope: 'admin', body: R.conceptSchema, bodyCheckedBy: 'handler', status: 201, response: obj({ concept: R.conceptSchema }), errors: [400, 401, 403, 409], violations: true },
  getConcept: { ...endpoints.getConcept, summary: 'One concept', auth: 'admin', scope: 'admin', status: 200, response: obj({ concept: R.conceptSchema }), errors: [401, 403, 404] },
  replaceConcept: { ...endpoints.replaceConcept, summary: 'Replace a concept', auth: 'admin', scope: 'admin', body: R.conceptSchema, bodyCheckedBy: 'handler', status: 200, response: obj({ concept: R.conceptSchema }), errors: [400, 401, 403, 404], violations: true },
  deleteConcept: { ...endpoints.deleteConcept, summary: 'Delete a concept', auth: 'admin', scope: 'admin', status: 204, errors: [401, 403, 404] },
  listTokens: { ...endpoints.listTokens, summary: "The caller's access tokens, newest first, a page at a time (never their secrets)", auth: 'session', scope: 'no-token', query: pageQuerySchema, status: 200, response: obj({ tokens: z.array(R.accessTokenSchema), next_cursor: z.string().nullable() }), errors: [400, 401, 403] },
  createToken: { ...endpoints.createToken, summary: 'Make an access token; its secret (htmls_pat_…) is in this answer only', auth: 'session', scope: 'no-token', body: createTokenSchema, status: 201, response: obj({ token: R.accessTokenSchema, secret: z.string() }), errors: [400, 401, 403] },
  deleteToken: { ...endpoints.deleteToken, summary: 'Revoke an access token: it stops working at once', auth: 'session', scope: 'no-token', status: 204, errors: [401, 403, 404] },
  uploadShareFile: { ...endpoints.uploadShareFile, summary: 'Share one file in one request (curl -T): the raw body, Content-Length required; the share is online at once. Location is its whole link; a client that asks for text/plain (Accept) gets that link alone', auth: 'session', scope: 'shares:write', rawBody: 'octets', query: oneRequestQuerySchema, status: 201, response: obj({ share: R.shareSchema }), errors: [400, 401, 403, 404, 413] },
  uploadShareFiles: { ...endpoints.uploadShareFiles, summary: 'Share one or more files in one multipart/form-data request (ShareX, scripts): fields note, expires_at, password, max_downloads, then the file parts; online at once', auth: 'session', scope: 'shares:write', rawBody: 'multipart', status: 201, response: obj({ share: R.shareSchema }), errors: [400, 401, 403, 404, 413] },
  listWebhooks: { ...endpoints.listWebhooks, summary: "The caller's webhooks, newest first, a page at a time (never their secrets)", auth: 'session', scope: 'no-token', query: listQuerySchema, status: 200, response: obj({ webhooks: z.array(R.webhookSchema), next_cursor: R.nextCursorSchema }), errors: [400, 401, 403] },
  createWebhook: { ...endpoints.createWebhook, summary: 'Add a webhook (http(s); private addresses only with WEBHOOK_ALLOW_PRIVATE, link-local never); its signing secret (whsec_…) is in this answer only', auth: 'session', scope: 'no-token', body: createWebhookSchema, status: 201, response: obj({ webhook: R.webhookSchema, secret: z.string() }), errors: [400, 401, 403, 409] },
  updateWebhook: { ...endpoints.updateWebhook, summary: 'Change the URL, the events or whether the webhook is active', auth: 'session', scope: 'no-token', body: updateWebhookSchema, status: 200, response: obj({ webhook: R.webhookSchema }), errors: [400, 401, 403, 404] },
  deleteWebhook: { ...endpoints.deleteWebhook, summary: 'Delete a webhook and its delivery log', auth: 'session', scope: 'no-token', status: 204, errors: [401, 403, 404] },
  listDeliveries: { ...endpoints.listDeliveries, summary: "A webhook's newest deliveries (100), newest first", auth: 'session', scope: 'no-token', status: 200, response: obj({ deliveries: z.array(R.deliverySchema) }), errors: [401, 403, 404] },
  redeliver: { ...endpoints.redeliver, summary: 'Send a delivery again (a new delivery of the same event, due now); 409 too_many_pending at 1,000 pending deliveries, 429 past 30 a minute', auth: 'session', scope: 'no-token', status: 202, response: obj({ delivery: R.deliverySchema }), errors: [401, 403, 404, 409, 429] },
  testWebhook: { ...endpoints.testWebhook, summary: 'Send a test event (webhook.test) to this webhook now, whatever its events; limited as redeliver', auth: 'session', scope: 'no-token', status: 202, response: obj({ delivery: R.deliverySchema }), errors: [401, 403, 404, 409, 429] },
  listAudit: { ...endpoints.listAudit, summary: 'The audit log of administrative actions, newest first, by action and actor, a page at a time', auth: 'admin', scope: 'admin', query: auditQuerySchema, status: 200, response: obj({ entries: z.array(R.auditEntrySchema), next_cursor: R.nextCursorSchema }), errors: [400, 401, 403] },
  storageHistory: { ...endpoints.storageHistory, summary: "Each member's stored bytes per day (recorded daily by the janitor)", auth: 'admin', scope: 'admin', query: storageHistoryQuerySchema, status: 200, response: R.storageHistorySchema, errors: [400, 401, 403] },
  openapi: { ...endpoints.openapi, summary: 'This document (OpenAPI 3.1)', auth: 'none', scope: 'public', status: 200, response: z.object({ openapi: z.string() }).catchall(z.unknown()), errors: [] },
} as const satisfies Record<EndpointName, Operation>;

export type Operations = typeof operations;
export type OperationName = keyof Operations;

/** What the operation's success answer carries (undefined for a 204). */
export type ResponseOf<N extends OperationName> = Operations[N] extends { response: infer S extends z.ZodType } ? z.output<S> : undefined;
/** What a client sends as the JSON body. */
export type BodyOf<N extends OperationName> = Operations[N] extends { body: infer S extends z.ZodType } ? z.input<S> : undefined;
