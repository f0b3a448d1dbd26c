/**
 * The OpenAPI 3.1 document of every /api route, built from the operations the routes run
 * (lib/contract/operations.ts) — one source, no hand-written copy of a request body. Concept
 * bodies are the served JSON Schema file itself, since that is what the routes validate with.
 */
import { z } from 'zod';
import conceptSchemaFile from '../../public/schemas/concept-1.0.json';
import { statusByCode } from '../errors';
import { shareZipPaths } from './openapi-share-zip';
import { operations, type Auth, type Operation } from './operations';
import * as R from './responses';

type Op = Operation;

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
    operationId: `${op.method.toLowerCase()}${op.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
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
  for (const op of Object.values(operations) as Op[]) (paths[op.path] ??= {})[op.method.toLowerCase()] = operation(op);
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
