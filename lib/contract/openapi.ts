/**
 * The OpenAPI 3.1 document of every /api route, built from the zod schemas the routes
 * validate with (lib/contract/*) — one source, no hand-written copy of a request body.
 * tests/openapi.test.ts fails when a route file exists without an entry here, or the reverse.
 */
import { z } from 'zod';
import { changeTokenSchema, loginSchema } from './auth';
import { conceptsQuerySchema } from './concepts';
import { fileStatusSchema, updateProjectSchema } from './hosting';
import * as R from './responses';
import { abortSchema, chunkQuerySchema, completeSchema, initSchema, partUrlSchema, resumeSchema, updateShareSchema } from './shares';
import { createUserSchema, profileSchema, registerSchema, settingsSchema, updateUserSchema } from './users';

type Auth = 'none' | 'session' | 'admin' | 'member';
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
}

const obj = (shape: Record<string, z.ZodType>) => z.object(shape);
const ops: Op[] = [
  { method: 'get', path: '/api/health', summary: 'Health of the database, the store and the migrations', auth: 'none', status: 200, response: obj({ ok: z.boolean(), database: z.boolean(), storage: z.boolean(), migrations: z.enum(['applied', 'pending']) }), errors: [503] },
  { method: 'post', path: '/api/auth/login', summary: 'Sign in with username and password, or the Admin Token', auth: 'none', body: loginSchema, status: 200, response: R.loginResultSchema, errors: [400, 401, 403, 429] },
  { method: 'post', path: '/api/auth/register', summary: 'Register a member account (default quota) and sign in', auth: 'none', body: registerSchema, status: 201, response: obj({ user: R.userSchema, token: z.string(), expires_at: z.string() }), errors: [400, 409, 429] },
  { method: 'post', path: '/api/auth/logout', summary: 'Revoke the session and clear the cookies', auth: 'none', status: 200, response: R.okSchema, errors: [] },
  { method: 'get', path: '/api/auth/check', summary: 'Whether the caller is signed in (never 401)', auth: 'none', status: 200, response: obj({ authenticated: z.boolean(), role: z.enum(['admin', 'member']).nullable() }), errors: [429] },
  { method: 'get', path: '/api/auth/me', summary: 'The caller: role, and profile with quota and usage', auth: 'session', status: 200, response: obj({ role: z.enum(['admin', 'member']), user: R.userSchema.nullable() }), errors: [401] },
  { method: 'patch', path: '/api/auth/profile', summary: "Change the member's display name, email and phone", auth: 'member', body: profileSchema, status: 200, response: obj({ user: R.userSchema }), errors: [400, 401, 403] },
  { method: 'delete', path: '/api/auth/account', summary: 'Delete the account with its shares, objects and sessions', auth: 'member', status: 204, errors: [401, 403] },
  { method: 'patch', path: '/api/auth/token', summary: 'Replace the Admin Token', auth: 'admin', body: changeTokenSchema, status: 200, response: obj({ ok: z.literal(true), token: z.string(), expires_at: z.string() }), errors: [400, 401, 403] },
  { method: 'get', path: '/api/users', summary: 'Every user with quota and usage', auth: 'admin', status: 200, response: obj({ users: z.array(R.userSchema) }), errors: [401, 403] },
  { method: 'post', path: '/api/users', summary: 'Create a user', auth: 'admin', body: createUserSchema, status: 201, response: obj({ user: R.userSchema }), errors: [400, 401, 403, 409] },
  { method: 'patch', path: '/api/users/{id}', summary: 'Change quota, status, role, profile or password', auth: 'admin', body: updateUserSchema, status: 200, response: obj({ user: R.userSchema }), errors: [400, 401, 403, 404] },
  { method: 'delete', path: '/api/users/{id}', summary: 'Delete a user, as account deletion', auth: 'admin', status: 204, errors: [401, 403, 404] },
  { method: 'get', path: '/api/settings', summary: 'The default quota for new registrations', auth: 'admin', status: 200, response: settingsSchema, errors: [401, 403] },
  { method: 'patch', path: '/api/settings', summary: 'Change the default quota (existing users unchanged)', auth: 'admin', body: settingsSchema, status: 200, response: settingsSchema, errors: [400, 401, 403] },
  { method: 'get', path: '/api/files', summary: 'Hosted projects with their files', auth: 'admin', status: 200, response: obj({ projects: z.array(R.projectSchema) }), errors: [401, 403] },
  { method: 'delete', path: '/api/files/{id}', summary: 'Delete one hosted file and its bytes', auth: 'admin', status: 204, errors: [401, 403, 404] },
  { method: 'post', path: '/api/upload', summary: 'Upload a site: fields slug?, note?, password?, append? first, then one part per file named by its relative path', auth: 'admin', rawBody: 'multipart', status: 201, response: obj({ project: R.projectSchema }), errors: [400, 401, 403, 409, 413] },
  { method: 'patch', path: '/api/status', summary: 'Set a hosted file online or offline', auth: 'admin', body: fileStatusSchema, status: 200, response: obj({ file: R.fileSchema }), errors: [400, 401, 403, 404] },
  { method: 'patch', path: '/api/projects/{slug}', summary: 'Change the note or the password of a project', auth: 'admin', body: updateProjectSchema, status: 200, response: obj({ project: R.projectSchema }), errors: [400, 401, 403, 404] },
  { method: 'delete', path: '/api/projects/{slug}', summary: 'Delete a project with its files and bytes', auth: 'admin', status: 204, errors: [401, 403, 404] },
  { method: 'get', path: '/api/shares', summary: "The caller's shares (the administrator: all)", auth: 'session', status: 200, response: obj({ shares: z.array(R.shareSchema) }), errors: [401] },
  { method: 'patch', path: '/api/shares/{id}', summary: 'Change note, expiry, password or status', auth: 'session', body: updateShareSchema, status: 200, response: obj({ share: R.shareSchema }), errors: [400, 401, 404, 409] },
  { method: 'delete', path: '/api/shares/{id}', summary: 'Delete a share and its objects; usage shrinks', auth: 'session', status: 204, errors: [401, 404] },
  { method: 'get', path: '/api/shares/upload/capabilities', summary: 'Upload mode, part size, parallelism and limits', auth: 'session', status: 200, response: R.capabilitiesSchema, errors: [401] },
  { method: 'post', path: '/api/shares/upload/init', summary: 'Check limits and quota, create the offline group and one multi-part upload per file', auth: 'session', body: initSchema, status: 201, response: R.initResultSchema, errors: [400, 401, 413] },
  { method: 'post', path: '/api/shares/upload/part-url', summary: 'A presigned UploadPart URL (direct mode)', auth: 'session', body: partUrlSchema, status: 200, response: obj({ url: z.string(), headers: z.record(z.string(), z.string()).optional(), expiresAt: z.string() }), errors: [400, 401, 404] },
  { method: 'put', path: '/api/shares/upload/chunk', summary: 'One part through the server (proxy mode); Content-Length required', auth: 'session', rawBody: 'octets', query: chunkQuerySchema, status: 200, response: obj({ partNumber: z.number().int(), etag: z.string() }), errors: [400, 401, 404, 413] },
  { method: 'post', path: '/api/shares/upload/complete', summary: 'Merge the stored parts and publish the share', auth: 'session', body: completeSchema, status: 200, response: obj({ share: R.shareSchema }), errors: [400, 401, 404, 409, 502] },
  { method: 'post', path: '/api/shares/upload/abort', summary: 'Abort every part upload of the group and delete its records', auth: 'session', body: abortSchema, status: 200, response: R.okSchema, errors: [400, 401, 404, 409] },
  { method: 'post', path: '/api/shares/upload/status', summary: 'Parts the store already holds, to resume an upload', auth: 'session', body: resumeSchema, status: 200, response: R.uploadStatusSchema, errors: [400, 401, 404, 409] },
  { method: 'get', path: '/api/concepts', summary: 'Concepts, optionally by tag', auth: 'admin', query: conceptsQuerySchema, status: 200, response: obj({ concepts: z.array(R.conceptSchema) }), errors: [400, 401, 403] },
  { method: 'post', path: '/api/concepts', summary: 'Store a concept (validated against Concept 1.0)', auth: 'admin', body: R.conceptSchema, status: 201, response: obj({ concept: R.conceptSchema }), errors: [400, 401, 403, 409] },
  { method: 'get', path: '/api/concepts/{id}', summary: 'One concept', auth: 'admin', status: 200, response: obj({ concept: R.conceptSchema }), errors: [401, 403, 404] },
  { method: 'put', path: '/api/concepts/{id}', summary: 'Replace a concept', auth: 'admin', body: R.conceptSchema, status: 200, response: obj({ concept: R.conceptSchema }), errors: [400, 401, 403, 404] },
  { method: 'delete', path: '/api/concepts/{id}', summary: 'Delete a concept', auth: 'admin', status: 204, errors: [401, 403, 404] },
  { method: 'get', path: '/api/openapi.json', summary: 'This document', auth: 'none', status: 200, response: z.record(z.string(), z.unknown()), errors: [] },
];

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid input',
  401: 'Not signed in, or wrong credentials',
  403: 'Signed in but not allowed',
  404: 'Not found (or not yours)',
  409: 'Conflict',
  413: 'Too large: quota, part or body',
  429: 'Rate limited (see Retry-After)',
  502: 'Object store unavailable',
  503: 'Database unavailable or migrations pending',
};

const schemaOf = (s: z.ZodType) => z.toJSONSchema(s, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });

export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops) {
    const security =
      op.auth === 'none' ? [] : [{ bearer: [] }, { adminCookie: [] }, { userCookie: [] }].filter((s) => !(op.auth === 'member' && 'adminCookie' in s));
    const parameters = [
      ...[...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })),
      ...(op.query
        ? Object.entries(op.query.shape).map(([name, s]) => ({ name, in: 'query', required: !(s as z.ZodType).safeParse(undefined).success, schema: schemaOf(s as z.ZodType) }))
        : []),
    ];
    const requestBody = op.body
      ? { required: true, content: { 'application/json': { schema: schemaOf(op.body) } } }
      : op.rawBody === 'multipart'
        ? { required: true, content: { 'multipart/form-data': { schema: { type: 'object', additionalProperties: true } } } }
        : op.rawBody === 'octets'
          ? { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } }
          : undefined;
    const responses: Record<string, unknown> = {
      [op.status]: op.response
        ? { description: 'Success', content: { 'application/json': { schema: schemaOf(op.response) } } }
        : { description: 'Success, no body' },
    };
    for (const code of op.errors) {
      responses[code] = { description: STATUS_TEXT[code], content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    }
    responses.default = { description: 'Internal error (no detail)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    (paths[op.path] ??= {})[op.method] = {
      summary: op.summary,
      operationId: `${op.method}${op.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      security,
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'htmls', version: '1.0.0', description: 'Static hosting and share links for large files. See API.md for the contract.' },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: {
        Error: schemaOf(R.errorSchema),
        User: schemaOf(R.userSchema),
        Project: schemaOf(R.projectSchema),
        File: schemaOf(R.fileSchema),
        Share: schemaOf(R.shareSchema),
        ShareItem: schemaOf(R.shareItemSchema),
      },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A member or administrator session token, or the Admin Token itself' },
        adminCookie: { type: 'apiKey', in: 'cookie', name: 'htmls_admin_session' },
        userCookie: { type: 'apiKey', in: 'cookie', name: 'htmls_user_session' },
      },
    },
  };
}

/** For the route-coverage test. */
export const documentedOperations = () => ops.map((o) => `${o.method.toUpperCase()} ${o.path}`);
