/**
 * The OpenAPI 3.1 document of every /api route, built from the zod schemas the routes
 * validate with (lib/contract/*) — one source, no hand-written copy of a request body. Concept
 * bodies are the served JSON Schema file itself, since that is what the routes validate with.
 * tests/openapi.test.ts fails when a route file exists without an entry here or the reverse,
 * when an entry's auth differs from its route()'s, or when a real response breaks its schema.
 */
import { z } from 'zod';
import conceptSchemaFile from '../../public/schemas/concept-1.0.json';
import { statusByCode } from '../errors';
import { changeTokenSchema, loginSchema } from './auth';
import { conceptsQuerySchema } from './concepts';
import { fileStatusSchema, updateProjectSchema } from './hosting';
import { shareZipPaths } from './openapi-share-zip';
import * as R from './responses';
import { abortSchema, chunkQuerySchema, completeSchema, initSchema, partUrlSchema, resumeSchema, updateShareSchema } from './shares';
import { createUserSchema, profileSchema, registerSchema, settingsSchema, updateUserSchema } from './users';

/** As the route's `route({ auth })`; the test compares the two. */
type Auth = 'none' | 'optional' | 'session' | 'admin' | 'member';
interface Op {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  summary: string;
  auth: Auth;
  body?: z.ZodType;
  /** Non-JSON request bodies. */
  rawBody?: 'multipart' | 'octets';
  query?: z.ZodObject;
  status: number;
  response?: z.ZodType;
  errors: number[];
  /** Its 400 lists every schema violation (concepts). */
  violations?: true;
}

const obj = (shape: Record<string, z.ZodType>) => z.object(shape);
const ops: Op[] = [
  { method: 'get', path: '/api/health', summary: 'Health of the database, the store and the migrations', auth: 'none', status: 200, response: R.healthSchema, errors: [503] },
  { method: 'post', path: '/api/auth/login', summary: 'Sign in with username and password, or the Admin Token', auth: 'none', body: loginSchema, status: 200, response: R.loginResultSchema, errors: [400, 401, 403, 429] },
  { method: 'post', path: '/api/auth/register', summary: 'Register a member account (default quota) and sign in', auth: 'none', body: registerSchema, status: 201, response: obj({ user: R.userSchema, token: z.string(), expires_at: z.string() }), errors: [400, 409, 429] },
  { method: 'post', path: '/api/auth/logout', summary: 'Revoke the session and clear the cookies (refused from another origin)', auth: 'none', status: 200, response: R.okSchema, errors: [403] },
  { method: 'get', path: '/api/auth/check', summary: 'Whether the caller is signed in (never 401)', auth: 'optional', status: 200, response: obj({ authenticated: z.boolean(), role: z.enum(['admin', 'member']).nullable() }), errors: [429] },
  { method: 'get', path: '/api/auth/me', summary: 'The caller: role, and profile with quota and usage', auth: 'session', status: 200, response: obj({ role: z.enum(['admin', 'member']), user: R.userSchema.nullable() }), errors: [401] },
  { method: 'patch', path: '/api/auth/profile', summary: "Change the member's display name, email and phone", auth: 'member', body: profileSchema, status: 200, response: obj({ user: R.userSchema }), errors: [400, 401, 403] },
  { method: 'delete', path: '/api/auth/account', summary: 'Delete the account with its shares, objects and sessions', auth: 'member', status: 204, errors: [401, 403] },
  { method: 'patch', path: '/api/auth/token', summary: 'Replace the Admin Token (at least 16 characters, not a known-weak value)', auth: 'admin', body: changeTokenSchema, status: 200, response: obj({ ok: z.literal(true), token: z.string(), expires_at: z.string() }), errors: [400, 401, 403] },
  { method: 'get', path: '/api/users', summary: 'Every user with quota and usage', auth: 'admin', status: 200, response: obj({ users: z.array(R.userSchema) }), errors: [401, 403] },
  { method: 'post', path: '/api/users', summary: 'Create a user', auth: 'admin', body: createUserSchema, status: 201, response: obj({ user: R.userSchema }), errors: [400, 401, 403, 409] },
  { method: 'patch', path: '/api/users/{id}', summary: 'Change quota, status, role, profile or password', auth: 'admin', body: updateUserSchema, status: 200, response: obj({ user: R.userSchema }), errors: [400, 401, 403, 404] },
  { method: 'delete', path: '/api/users/{id}', summary: 'Delete a user, as account deletion', auth: 'admin', status: 204, errors: [401, 403, 404] },
  { method: 'get', path: '/api/settings', summary: 'The default quota for new registrations', auth: 'admin', status: 200, response: settingsSchema, errors: [401, 403] },
  { method: 'patch', path: '/api/settings', summary: 'Change the default quota (existing users unchanged)', auth: 'admin', body: settingsSchema, status: 200, response: settingsSchema, errors: [400, 401, 403] },
  { method: 'get', path: '/api/files', summary: 'Hosted projects with their files', auth: 'admin', status: 200, response: obj({ projects: z.array(R.projectSchema) }), errors: [401, 403] },
  { method: 'delete', path: '/api/files/{id}', summary: 'Delete one hosted file and its bytes', auth: 'admin', status: 204, errors: [401, 403, 404] },
  { method: 'post', path: '/api/upload', summary: 'Upload a site as a new deploy: fields slug?, note?, password?, append? or replace? ("true"), spa?, dotfiles? first, then one part per file named by its relative path (UTF-8), or one .zip part that is unpacked', auth: 'admin', rawBody: 'multipart', status: 201, response: obj({ project: R.projectSchema }), errors: [400, 401, 403, 409, 413] },
  { method: 'get', path: '/api/projects/{slug}/deploys', summary: "A project's kept deploys, newest first (DEPLOY_HISTORY of them)", auth: 'admin', status: 200, response: obj({ deploys: z.array(R.deploySchema) }), errors: [401, 403, 404] },
  { method: 'post', path: '/api/projects/{slug}/deploys/{id}/activate', summary: 'Make a kept deploy live at once (rollback)', auth: 'admin', status: 200, response: obj({ project: R.projectSchema }), errors: [401, 403, 404] },
  { method: 'patch', path: '/api/status', summary: 'Set a hosted file online or offline', auth: 'admin', body: fileStatusSchema, status: 200, response: obj({ file: R.fileSchema }), errors: [400, 401, 403, 404] },
  { method: 'patch', path: '/api/projects/{slug}', summary: 'Change the note, the password, SPA mode or dotfiles of a project', auth: 'admin', body: updateProjectSchema, status: 200, response: obj({ project: R.projectSchema }), errors: [400, 401, 403, 404] },
  { method: 'delete', path: '/api/projects/{slug}', summary: 'Delete a project with its files and bytes', auth: 'admin', status: 204, errors: [401, 403, 404] },
  { method: 'get', path: '/api/shares', summary: "The caller's shares (the administrator: all)", auth: 'session', status: 200, response: obj({ shares: z.array(R.shareSchema) }), errors: [401] },
  { method: 'patch', path: '/api/shares/{id}', summary: 'Change note, expiry, password, status or max_downloads (null: unlimited)', auth: 'session', body: updateShareSchema, status: 200, response: obj({ share: R.shareSchema }), errors: [400, 401, 404, 409] },
  { method: 'delete', path: '/api/shares/{id}', summary: 'Delete a share and its objects; usage shrinks', auth: 'session', status: 204, errors: [401, 404] },
  { method: 'get', path: '/api/shares/upload/capabilities', summary: 'Upload mode, part size, parallelism and limits', auth: 'session', status: 200, response: R.capabilitiesSchema, errors: [401] },
  { method: 'post', path: '/api/shares/upload/init', summary: 'Check limits and quota, create the offline group and one multi-part upload per file', auth: 'session', body: initSchema, status: 201, response: R.initResultSchema, errors: [400, 401, 409, 413] },
  { method: 'post', path: '/api/shares/upload/part-url', summary: "A presigned UploadPart URL (direct mode); it signs the part's exact length, so PUT exactly that many bytes with the returned headers", auth: 'session', body: partUrlSchema, status: 200, response: R.partUrlResultSchema, errors: [400, 401, 404] },
  { method: 'put', path: '/api/shares/upload/chunk', summary: 'One part through the server (proxy mode); Content-Length required', auth: 'session', rawBody: 'octets', query: chunkQuerySchema, status: 200, response: R.chunkResultSchema, errors: [400, 401, 404, 413] },
  { method: 'post', path: '/api/shares/upload/complete', summary: 'Merge the stored parts and publish the share', auth: 'session', body: completeSchema, status: 200, response: obj({ share: R.shareSchema }), errors: [400, 401, 404, 409, 502] },
  { method: 'post', path: '/api/shares/upload/abort', summary: "Abort every part upload of the group and delete its records (the administrator: any member's)", auth: 'session', body: abortSchema, status: 200, response: R.okSchema, errors: [400, 401, 404, 409] },
  { method: 'post', path: '/api/shares/upload/status', summary: 'Parts the store already holds, to resume an upload', auth: 'session', body: resumeSchema, status: 200, response: R.uploadStatusSchema, errors: [400, 401, 404, 409] },
  { method: 'get', path: '/api/concepts', summary: 'Concepts, optionally by tag', auth: 'admin', query: conceptsQuerySchema, status: 200, response: obj({ concepts: z.array(R.conceptSchema) }), errors: [400, 401, 403] },
  { method: 'post', path: '/api/concepts', summary: 'Store a concept (validated against Concept 1.0)', auth: 'admin', body: R.conceptSchema, status: 201, response: obj({ concept: R.conceptSchema }), errors: [400, 401, 403, 409], violations: true },
  { method: 'get', path: '/api/concepts/{id}', summary: 'One concept', auth: 'admin', status: 200, response: obj({ concept: R.conceptSchema }), errors: [401, 403, 404] },
  { method: 'put', path: '/api/concepts/{id}', summary: 'Replace a concept', auth: 'admin', body: R.conceptSchema, status: 200, response: obj({ concept: R.conceptSchema }), errors: [400, 401, 403, 404], violations: true },
  { method: 'delete', path: '/api/concepts/{id}', summary: 'Delete a concept', auth: 'admin', status: 204, errors: [401, 403, 404] },
  { method: 'get', path: '/api/openapi.json', summary: 'This document (OpenAPI 3.1)', auth: 'none', status: 200, response: z.object({ openapi: z.string() }).catchall(z.unknown()), errors: [] },
];

const REF = '#/components/schemas/';
const JSON_TYPE = 'application/json';
type Schema = Record<string, unknown>;

/** Route input as the route parses it (io "input"); no shared components. */
const inputSchema = (s: z.ZodType): Schema => {
  const { $schema: _, ...rest } = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Schema;
  return rest;
};

/** A response shape; named shapes (R.components) become $refs into components.schemas. */
const outputSchema = (s: z.ZodType): Schema => {
  const id = R.components.get(s)?.id;
  if (id) return { $ref: REF + id };
  const { $schema: _, $defs: __, ...rest } = z.toJSONSchema(s, { io: 'output', target: 'draft-2020-12', metadata: R.components }) as Schema;
  return JSON.parse(JSON.stringify(rest).replaceAll('"#/$defs/', `"${REF}`));
};

/** components.schemas: the zod-named shapes, with Concept and ConceptRelation from the served schema file. */
function componentSchemas(): Record<string, Schema> {
  const { schemas } = z.toJSONSchema(R.components, { io: 'output', target: 'draft-2020-12', uri: (id) => REF + id }) as { schemas: Record<string, Schema> };
  const out: Record<string, Schema> = {};
  for (const [id, { $schema: _s, $id: _i, ...rest }] of Object.entries(schemas)) out[id] = rest;
  const { $schema: _, $id, $defs, ...concept } = JSON.parse(JSON.stringify(conceptSchemaFile).replaceAll('"#/$defs/relation"', `"${REF}ConceptRelation"`));
  out.Concept = { ...concept, description: `${concept.description} The schema file: ${$id}` };
  out.ConceptRelation = $defs.relation;
  return out;
}

const codesOf = (status: number) => Object.entries(statusByCode).filter(([, s]) => s === status).map(([c]) => c).join(', ');
const SCHEMES = ['bearer', 'adminCookie', 'userCookie'];
const securityFor = (auth: Auth) =>
  auth === 'none'
    ? []
    : [
        ...(auth === 'optional' ? [{}] : []),
        ...SCHEMES.filter((k) => !(auth === 'member' && k === 'adminCookie')).map((k) => ({ [k]: [] })),
      ];

function errorResponse(status: number, violations: boolean) {
  const schema =
    status === 400 && violations
      ? { anyOf: [{ $ref: `${REF}ValidationError` }, { $ref: `${REF}Error` }], description: 'Every schema violation, or a body that is not JSON' }
      : { $ref: `${REF}Error` };
  return {
    description: `Codes with this status: ${codesOf(status)}`,
    ...(status === 429 ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } } : {}),
    content: { [JSON_TYPE]: { schema } },
  };
}

function operation(op: Op) {
  const parameters = [
    ...[...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })),
    ...Object.entries(op.query?.shape ?? {}).map(([name, s]) => ({
      name,
      in: 'query',
      required: !(s as z.ZodType).safeParse(undefined).success,
      schema: inputSchema(s as z.ZodType),
    })),
  ];
  const requestBody = op.body
    ? { required: true, content: { [JSON_TYPE]: { schema: R.components.has(op.body) ? outputSchema(op.body) : inputSchema(op.body) } } }
    : op.rawBody === 'multipart'
      ? { required: true, content: { 'multipart/form-data': { schema: { type: 'object', additionalProperties: true } } } }
      : op.rawBody === 'octets'
        ? { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } }
        : undefined;
  const responses: Record<string, unknown> = {
    [op.status]: op.response ? { description: 'Success', content: { [JSON_TYPE]: { schema: outputSchema(op.response) } } } : { description: 'Success, no body' },
  };
  // A Bearer that is not a live session counts as a failed login: any authenticated route may answer 429.
  const errors = op.auth === 'none' || op.errors.includes(429) ? op.errors : [...op.errors, 429];
  for (const status of errors) responses[status] = errorResponse(status, op.violations ?? false);
  responses.default = { description: 'Internal error (no detail), or 503 while migrations are pending', content: { [JSON_TYPE]: { schema: { $ref: `${REF}Error` } } } };
  return {
    summary: op.summary,
    operationId: `${op.method}${op.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    'x-htmls-auth': op.auth,
    security: securityFor(op.auth),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/**
 * The public byte routes (not /api): what guests and download tools get. Framework-free
 * (lib/shares/serve-share-item.ts, lib/http/send-object.ts); described here for clients.
 */
function publicDownloadPaths(): Record<string, Record<string, unknown>> {
  const text = { 'text/html': { schema: { type: 'string' } }, [JSON_TYPE]: { schema: { $ref: `${REF}Error` } } };
  const validators = {
    ETag: { description: 'Strong ETag of the stored object', schema: { type: 'string' } },
    'Last-Modified': { description: 'When the item was stored', schema: { type: 'string' } },
    'Accept-Ranges': { description: 'Always `bytes`', schema: { type: 'string', const: 'bytes' } },
  };
  const disposition = {
    description:
      '`inline` (or `attachment` with ?download=1, and always for HTML, SVG and unknown types) with `filename="…"` in pure printable ASCII (accents transliterated, anything else `_`) and, whenever the name is not plain printable ASCII without `"`, `\\` or `%`, `filename*=UTF-8\'\'…` (RFC 8187) with the exact name.',
    schema: { type: 'string' },
  };
  const get = {
    summary: 'The bytes of one item of a share (guests; a password share needs its unlock cookie)',
    description: [
      'RFC 9110 conditional and range requests. Preconditions in the RFC order: a false If-Match or If-Unmodified-Since answers 412; a matching If-None-Match (weak comparison) or an If-Modified-Since not older than Last-Modified answers 304.',
      'Range: `bytes=` ranges only. One satisfiable range answers 206 with Content-Range; several answer 206 `multipart/byteranges` (sorted, overlapping and adjacent ranges coalesced, streamed with an exact Content-Length). More than 16 ranges, a malformed header, or an If-Range that is not exactly the current strong ETag or the exact Last-Modified date answer the whole body (200). No satisfiable range — including positions beyond 2^53 — answers 416 with `Content-Range: bytes */<size>`. HEAD ignores Range.',
      'Every completed download counts once in the share\'s and the item\'s download_count (a Range reaching the last byte counts; HEAD and 304 never). Once the share\'s max_downloads is reached: 410 download_limit.',
      'Errors are the contract\'s JSON for clients that send `Accept: application/json`, a small HTML page otherwise.',
    ].join('\n\n'),
    operationId: 'getShareItemBytes',
    security: [],
    parameters: [
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'path', in: 'path', required: true, description: "The item's relative path, each segment percent-encoded (slashes kept)", schema: { type: 'string' } },
      { name: 'download', in: 'query', required: false, description: '`1`: Content-Disposition attachment', schema: { type: 'string', enum: ['1'] } },
      { name: 'Range', in: 'header', required: false, schema: { type: 'string' }, description: 'e.g. `bytes=0-99`, `bytes=-500`, `bytes=0-9,100-109`' },
      { name: 'If-Range', in: 'header', required: false, schema: { type: 'string' } },
      { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
      { name: 'If-Modified-Since', in: 'header', required: false, schema: { type: 'string' } },
      { name: 'If-Match', in: 'header', required: false, schema: { type: 'string' } },
      { name: 'If-Unmodified-Since', in: 'header', required: false, schema: { type: 'string' } },
    ],
    responses: {
      200: { description: 'The whole item', headers: { ...validators, 'Content-Disposition': disposition }, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
      206: {
        description: 'One range (Content-Range) or several (multipart/byteranges)',
        headers: { ...validators, 'Content-Range': { description: '`bytes <first>-<last>/<size>` (one range)', schema: { type: 'string' } } },
        content: { 'application/octet-stream': { schema: { type: 'string' } }, 'multipart/byteranges': { schema: { type: 'string' } } },
      },
      304: { description: 'Not modified (If-None-Match / If-Modified-Since)', headers: validators },
      401: { description: 'Password required: the password page (POST /f/{id}/unlock sets the cookie)', content: text },
      404: { description: 'No such share or item, or the share is offline', content: text },
      410: { description: 'expired, or download_limit (max_downloads reached)', content: text },
      412: { description: 'If-Match or If-Unmodified-Since is false' },
      416: { description: 'No satisfiable range', headers: { 'Content-Range': { description: '`bytes */<size>`', schema: { type: 'string' } } } },
    },
  };
  return {
    '/f/{id}/{path}': { get, head: { ...get, operationId: 'headShareItemBytes', summary: 'As GET, without a body (Range is ignored)' } },
  };
}

export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops) (paths[op.path] ??= {})[op.method] = operation(op);
  Object.assign(paths, publicDownloadPaths());
  return {
    openapi: '3.1.0',
    info: {
      title: 'htmls',
      version: '1.0.0',
      description: 'Static hosting and share links for large files. See API.md for the contract. x-htmls-auth: none, optional, session (member or administrator), member, admin.',
    },
    servers: [{ url: '/' }],
    paths: { ...paths, ...shareZipPaths() },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A member or administrator session token, or the Admin Token itself' },
        adminCookie: { type: 'apiKey', in: 'cookie', name: 'htmls_admin_session' },
        userCookie: { type: 'apiKey', in: 'cookie', name: 'htmls_user_session' },
      },
    },
  };
}
